import EngineExecution
import FeatureService

extension ArcGISEngine {
    /// What `result: related` of `query` follows from the origin layer at `url`: the relationship resolved in
    /// the origin's metadata, and the related table's metadata (cached like every layer's) to check the
    /// related clause, fields and order against.
    func relatedTarget(
        _ query: ServiceQuery, origin: LayerMetadata, url: LayerURL, auth: QueryAuthentication
    ) async throws -> RelatedTarget {
        guard let related = query.related else {
            throw FeatureServiceError(
                .invalidQuery, "result related needs a relationship (its name or id) to follow from \(url.url)",
                layer: url.url)
        }
        let relationship = try RelatedTarget.relationship(related.relationship, of: origin)
        let table = try await layerMetadata(url.layer(relationship.relatedTableId), auth: auth)
        return try RelatedTarget(
            related, relationship: relationship, origin: origin, table: table, returnGeometry: query.returnGeometry)
    }
}
