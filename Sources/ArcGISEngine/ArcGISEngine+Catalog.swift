import EngineExecution
import FeatureService

extension ArcGISEngine {
    /// What a target offers to query, for `result: catalog`: every entry of a service's layer list (groups,
    /// tables and rasters too, marked not queryable), or the one layer a layer URL names. Feature layers'
    /// metadata is read (cached, at once) for their geometry type and pagination support; a layer whose
    /// metadata cannot be read is listed without them rather than failing the catalog.
    func catalog(of target: ArcGISTarget, credential: String? = nil) async throws(FeatureServiceError) -> [CatalogEntry] {
        let auth = authentication(credential)
        let parsed = try LayerURL(parsing: target.url)
        if parsed.layerId != nil {
            let metadata = try await Self.mapErrors(layer: parsed.url) { try await self.layerMetadata(parsed, auth: auth) }
            return [Self.entry(metadata, url: parsed.url)]
        }
        let service = try await Self.mapErrors(layer: parsed.url) { try await self.serviceMetadata(parsed, auth: auth) }
        let wanted = target.layers.map(Set.init)
        let entries = service.layers.filter { wanted?.contains($0.id) ?? true }
        let details = await layerDetails(entries.filter(\.isQueryableFeatureLayer).map { parsed.layer($0.id) }, auth: auth)
        return entries.map { entry in
            let url = parsed.layer(entry.id).url
            if let metadata = details[url] { return Self.entry(metadata, url: url) }
            // A group, table or raster is not queryable as a layer; a feature layer whose metadata failed is unknown.
            return CatalogEntry(
                id: String(entry.id), title: entry.name, url: url, isQueryable: entry.isQueryableFeatureLayer ? nil : false)
        }
    }

    /// The metadata of `layers`, read at once; layers whose metadata failed are left out.
    private func layerDetails(_ layers: [LayerURL], auth: QueryAuthentication) async -> [String: LayerMetadata] {
        let loaded = await OrderedFanOut.map(layers) { layer in try? await self.layerMetadata(layer, auth: auth) }
        var byURL: [String: LayerMetadata] = [:]
        for metadata in loaded { if let metadata { byURL[metadata.url] = metadata } }
        return byURL
    }

    private static func entry(_ metadata: LayerMetadata, url: String) -> CatalogEntry {
        let isFeatureLayer = metadata.type.map { ["feature layer", "table"].contains($0.lowercased()) } ?? true
        var entry = CatalogEntry(
            id: metadata.id.map(String.init) ?? url, title: metadata.name, url: url, geometryType: metadata.geometryType,
            isQueryable: isFeatureLayer && metadata.supportsQuery, supportsPagination: metadata.supportsPagination)
        entry.relationships = metadata.relationships
        entry.hasAttachments = metadata.hasAttachments
        return entry
    }
}
