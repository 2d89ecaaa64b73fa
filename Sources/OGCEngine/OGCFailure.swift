import FeatureService

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
