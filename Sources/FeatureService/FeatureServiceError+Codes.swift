/// The codes a layer can fail with, whatever its protocol: the engines share these spellings, so the worker's
/// contract documents them once (``FeatureServiceError/Code/layerCodes``) without naming an engine.
extension FeatureServiceError.Code {
    /// The where clause, geometry or fields do not fit the layer (unknown field, wrong type, bad syntax), or an
    /// OGC server answered 400 (its description is in the message).
    package static let invalidQuery = Self("invalid_query")
    /// The URL is not a FeatureServer or MapServer layer or service URL, or not an absolute http(s) landing page.
    package static let invalidURL = Self("invalid_url")
    /// The layer exists but cannot answer the query (no `Query` capability, not a feature layer, an OGC
    /// collection whose `itemType` is not `feature`).
    package static let unsupportedLayer = Self("unsupported_layer")
    /// The layer answers queries, but not this kind: an OGC API collection has no related records or
    /// attachments (the protocol has no such operation), so `result: related` or `attachments` fails there
    /// rather than answering an empty list that would look like "none".
    package static let unsupportedQuery = Self("unsupported_query")
    /// The service answered with an error body (ArcGIS `{"error":…}`, an OGC exception on a status other than
    /// 400/404); `serviceCode` holds its code where it has one.
    package static let serviceError = Self("service_error")
    /// 498/499 (ArcGIS) or 401 (OGC) as a response is classified: the token is invalid, expired or missing.
    /// The engines' requests report a rejection with the credential codes instead (``authenticationRequired``,
    /// ``credentialRejected``, ``credentialExpired``) after the one refresh they allow.
    package static let authentication = Self("authentication")
    /// 403: the caller may not use this layer.
    package static let forbidden = Self("forbidden")
    /// The layer, service or collection does not exist (404, an ArcGIS 404 body, a collection the landing page
    /// does not list).
    package static let notFound = Self("not_found")
    /// An HTTP status other than success without an error body (retryable for 408, 429, 5xx).
    package static let httpStatus = Self("http_status")
    /// The body is not the JSON the protocol promises: HTML error pages, proxies, truncation, the wrong shape.
    package static let malformedResponse = Self("malformed_response")
    /// Features arrived without the object-id field the layer names.
    package static let missingObjectID = Self("missing_object_id")
    /// The result would exceed a limit (features held in memory, response bytes).
    package static let limitExceeded = Self("limit_exceeded")
    /// The transfer failed below HTTP: DNS, connect, TLS, reset, timeout (`details` has the HTTP code).
    package static let transport = Self("transport")
    /// A geometry could not be converted for output (a spatial reference GeoJSON cannot carry).
    package static let geometryConversion = Self("geometry_conversion")
    /// The targets of one query stand for more layers than the engine allows in one request.
    package static let tooManyLayers = Self("too_many_layers")
    /// An OGC `next` link led to a page already fetched: following it would never end.
    package static let pagingCycle = Self("paging_cycle")
    /// An OGC `next` link points at another origin than the landing page's: it is not followed and the layer
    /// fails (nothing partial is published).
    package static let foreignNextLink = Self("foreign_next_link")
    /// Too many empty OGC pages in a row that still link to a `next`.
    package static let pagingStalled = Self("paging_stalled")
    /// The response's `Content-Crs` is not the CRS that was asked for (CRS84).
    package static let crsMismatch = Self("crs_mismatch")

    /// The service wants credentials and the request carried none: no credential covers the URL.
    package static let authenticationRequired = Self("authentication_required")
    /// The service rejected the credential again right after it was replaced, or the token service refused it.
    package static let credentialRejected = Self("credential_rejected")
    /// An API key or pre-generated token was rejected: only the operator can replace it.
    package static let credentialExpired = Self("credential_expired")
    /// The token service could not be reached: trying again later may help.
    package static let tokenServiceUnavailable = Self("token_service_unavailable")
}
