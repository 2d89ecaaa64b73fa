import FeatureService

extension LayerQueryRunner {
    /// `result: related` (being written).
    func runRelated(_ base: QueryParameters) async throws -> ServiceLayerResult {
        throw FeatureServiceError(.unsupportedQuery, "related records are not answered yet", layer: layer.url)
    }

    /// `result: attachments` (being written).
    func runAttachments(_ base: QueryParameters) async throws -> ServiceLayerResult {
        throw FeatureServiceError(.unsupportedQuery, "attachments are not answered yet", layer: layer.url)
    }
}
