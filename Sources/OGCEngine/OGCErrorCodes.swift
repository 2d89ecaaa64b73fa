package import FeatureService

/// The codes an OGC API Features layer can fail with. The engine fails layers with the seam's
/// ``FeatureServiceError`` directly (it has no public API of its own to keep an error type for); the codes it
/// shares with ArcGIS keep their spellings, and the ones only OGC paging and CRS rules produce are added
/// here and listed in ``FeatureServiceError/Code/layerCodes``.
extension FeatureServiceError.Code {
    /// The where clause, geometry or fields cannot be asked of the collection, or the server answered 400
    /// (its description is in the message).
    package static let invalidQuery = Self("invalid_query")
    /// The landing page URL is not an absolute http(s) URL.
    package static let invalidURL = Self("invalid_url")
    /// The collection's `itemType` is not `feature`.
    package static let unsupportedLayer = Self("unsupported_layer")
    /// The server answered with an exception body (`{code, description}`) on a status other than 400/404.
    package static let serviceError = Self("service_error")
    /// 401: credentials are missing or refused, as a response is classified. The transport reports a 401 with
    /// the credential codes instead (``credentialCodes``) after the one refresh it allows.
    package static let authentication = Self("authentication")
    /// 403.
    package static let forbidden = Self("forbidden")
    /// 404, or a collection the landing page does not list.
    package static let notFound = Self("not_found")
    /// Another status without an exception body (retryable for 408, 429, 5xx).
    package static let httpStatus = Self("http_status")
    /// Not the JSON the standard promises: HTML, non-JSON, truncated, wrong shape.
    package static let malformedResponse = Self("malformed_response")
    /// More features than the engine holds without a caller's `maxFeatures`, or a body too large.
    package static let limitExceeded = Self("limit_exceeded")
    /// The transfer failed below HTTP.
    package static let transport = Self("transport")
    /// Too many layers for one request.
    package static let tooManyLayers = Self("too_many_layers")
    /// A `next` link led to a page already fetched: following it would never end.
    package static let pagingCycle = Self("paging_cycle")
    /// A `next` link points at another origin than the landing page's: it is not followed and the layer fails
    /// (nothing partial is published).
    package static let foreignNextLink = Self("foreign_next_link")
    /// Too many empty pages in a row that still link to a `next`.
    package static let pagingStalled = Self("paging_stalled")
    /// The response's `Content-Crs` is not the CRS that was asked for (CRS84).
    package static let crsMismatch = Self("crs_mismatch")
}

/// Errors the engine mints, each naming the layer (collection URL) it belongs to.
enum OGCFailure {
    static func malformed(_ layer: String, _ what: String, retryable: Bool = false) -> FeatureServiceError {
        FeatureServiceError(.malformedResponse, "\(layer): \(what)", layer: layer, isRetryable: retryable)
    }

    static func invalidQuery(_ layer: String, _ what: String) -> FeatureServiceError {
        FeatureServiceError(.invalidQuery, "\(layer): \(what)", layer: layer)
    }

    static func cancelled(_ layer: String) -> FeatureServiceError {
        FeatureServiceError(.cancelled, "the query of \(layer) was cancelled", layer: layer)
    }
}
