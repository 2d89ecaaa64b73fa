import FeatureService

extension ArcGISEngine {
    /// A layer span's `error.type` (see `EngineSpans.layer`): the ArcGIS error's code, which never carries a
    /// secret; nil for other errors.
    static func spanErrorCode(_ error: any Error) -> String? {
        (error as? FeatureServiceError)?.code.rawValue
    }
}
