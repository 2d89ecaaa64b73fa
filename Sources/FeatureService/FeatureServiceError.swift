/// Why a layer (or a target whose layers could not be listed) has no result, in one shape for every protocol:
/// what went wrong (`code`), for which layer, and whether trying again can help.
package struct FeatureServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable snake_case code. A struct with static members, so engines add codes without breaking callers;
    /// an engine's own codes (`invalid_query`, `http_status`, ...) pass through as they are.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// No engine of this worker queries the target's kind.
        package static let unsupportedTarget = Code("unsupported_target")
        /// The query was cancelled by its caller.
        package static let cancelled = Code("cancelled")

        /// Every code an engine of this package may put on a failed layer, whatever its protocol
        /// (FeatureServiceError+Codes.swift), so the worker's contract can document them without naming an
        /// engine. `invalid_url` and `too_many_layers` are shared with the worker's own rejections.
        package static let layerCodes: [Code] = [
            .invalidQuery, .invalidURL, .unsupportedLayer, .unsupportedQuery, .serviceError, .authentication, .forbidden, .notFound,
            .httpStatus, .malformedResponse, .missingObjectID, .limitExceeded, .transport, .geometryConversion,
            .tooManyLayers, .cancelled, .unsupportedTarget, .pagingCycle, .foreignNextLink, .pagingStalled, .crsMismatch,
            .storeUnavailable, .storeDenied,
        ] + credentialCodes

        /// The codes of the worker's credentials (`AuthenticationFailure` in EngineExecution), which both
        /// engines put on a layer as the authenticator or a service's 498/499/401 decides.
        package static let credentialCodes: [Code] = [
            "authentication_required", "credential_rejected", "credential_expired", "relogin_required", "not_federated",
            "insecure_transport", "token_service_unavailable", "unknown_credential", "credential_unavailable",
            "credential_scope_mismatch",
        ].map { Code(rawValue: $0) }
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
    /// The service's own error code, where its body carried one.
    package var serviceCode: Int?
    /// The service's error details, or extra facts (the transport's error code).
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
        var text = "FeatureServiceError(\(code)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)]" }
        if let serviceCode { text += " [service code \(serviceCode)]" }
        if !details.isEmpty { text += " details: \(details.joined(separator: "; "))" }
        return text
    }

    /// The answer for a target no engine here queries.
    package static func unsupported(_ target: ServiceTarget) -> FeatureServiceError {
        FeatureServiceError(
            .unsupportedTarget, "\(target.url): this worker queries no \(target.kind) targets", layer: target.url)
    }
}
