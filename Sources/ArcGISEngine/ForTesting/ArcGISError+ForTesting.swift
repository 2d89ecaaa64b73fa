// Hooks for this package's tests: `package`, so an embedder of the library never sees them.

extension ArcGISError.Code {
    /// Every code this engine emits: the seam's `FeatureServiceError.Code.layerCodes` must list each (a test
    /// checks), so the worker's contract documents them without naming this engine. A code added to
    /// ``ArcGISError/Code`` is added here too.
    package static let all: [ArcGISError.Code] = [
        .invalidQuery, .invalidURL, .unsupportedLayer, .serviceError, .authentication, .forbidden, .notFound,
        .httpStatus, .malformedResponse, .missingObjectID, .limitExceeded, .transport, .geometryConversion,
        .cancelled, .tooManyLayers,
    ] + credentials
}
