/// Every way an ArcGIS query can fail, in one shape: what went wrong (`code`), for which layer, and whether
/// trying again can help.
///
/// HTTP failures, ArcGIS error bodies (`{"error":{...}}` and the admin shape `{"status":"error",...}`),
/// bodies that are not the JSON the protocol promises, and queries refused before sending all end here, so a
/// caller (the worker) maps one type to its outcomes.
package struct ArcGISError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. A struct with static members, not an enum, so codes can be added without breaking
    /// callers that switch over them.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The where clause or geometry does not fit the layer (unknown field, wrong type, bad syntax).
        package static let invalidQuery = Code("invalid_query")
        /// The URL is not a FeatureServer or MapServer layer or service URL.
        package static let invalidURL = Code("invalid_url")
        /// The layer exists but cannot answer the query (no `Query` capability, or not a feature layer).
        package static let unsupportedLayer = Code("unsupported_layer")
        /// The service answered with an ArcGIS error body; `serviceCode` holds its code.
        package static let serviceError = Code("service_error")
        /// 498/499: the token is invalid, expired or missing, as a response is classified. The engine's requests
        /// report a rejection with the credential codes instead (``authenticationRequired``,
        /// ``credentialRejected``, ``credentialExpired``) after the one refresh it allows.
        package static let authentication = Code("authentication")
        /// 403: the caller may not use this layer.
        package static let forbidden = Code("forbidden")
        /// The layer or service does not exist (404 or an ArcGIS 404 body).
        package static let notFound = Code("not_found")
        /// An HTTP status other than 200 without an ArcGIS error body.
        package static let httpStatus = Code("http_status")
        /// The body is not JSON, is empty, or is JSON of the wrong shape (HTML error pages, proxies, truncation).
        package static let malformedResponse = Code("malformed_response")
        /// Features arrived without the object-id field the layer names.
        package static let missingObjectID = Code("missing_object_id")
        /// The result would exceed a limit the caller set (features held in memory, response bytes).
        package static let limitExceeded = Code("limit_exceeded")
        /// The transfer failed below HTTP: DNS, connect, TLS, reset, timeout (`details` has the HTTP code).
        package static let transport = Code("transport")
        /// A geometry could not be converted for output (a spatial reference GeoJSON cannot carry).
        package static let geometryConversion = Code("geometry_conversion")
        /// The query was cancelled by its caller.
        package static let cancelled = Code("cancelled")
    }

    package var code: Code
    /// A sentence a person can act on; it names the layer.
    package var message: String
    /// The layer (or service) URL the error belongs to, without query parameters or tokens.
    package var layer: String
    /// Whether the same request may succeed later (timeouts, 5xx, 429, truncated bodies).
    package var isRetryable: Bool
    /// The HTTP status, where one was received.
    package var httpStatus: Int?
    /// The code inside an ArcGIS error body (e.g. 400, 498, 500).
    package var serviceCode: Int?
    /// The `details` array of an ArcGIS error body, or extra facts (the transport's error code).
    package var details: [String]
    /// How long the service asked us to wait (`Retry-After`), if it did.
    package var retryAfter: Duration?

    package init(
        _ code: Code, _ message: String, layer: String, isRetryable: Bool = false, httpStatus: Int? = nil,
        serviceCode: Int? = nil, details: [String] = [], retryAfter: Duration? = nil
    ) {
        self.code = code
        self.message = message
        self.layer = layer
        self.isRetryable = isRetryable
        self.httpStatus = httpStatus
        self.serviceCode = serviceCode
        self.details = details
        self.retryAfter = retryAfter
    }

    package var description: String {
        var text = "ArcGISError(\(code)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let serviceCode { text += " [service code \(serviceCode)]" }
        if !details.isEmpty { text += " details: \(details.joined(separator: "; "))" }
        return text
    }
}
