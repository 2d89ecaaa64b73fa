import FeatureService

extension OGCEngine {
    /// A collection span's `error.type` (see `EngineSpans.layer`): the error's code, which never carries a
    /// secret; nil for other errors.
    static func spanErrorCode(_ error: any Error) -> String? {
        (error as? FeatureServiceError)?.code.rawValue
    }
}
