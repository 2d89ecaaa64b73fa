extension ArcGISResponse {
    /// Esri JSON page → GeoJSON through ``featurePage(_:layer:objectIdField:limits:)`` and
    /// ``FeatureGeoJSON``: the reference conversion (every spatial reference, every geometry shape).
    static func geoJSONPageThroughFeatures(_ body: [UInt8], layer: String, objectIdField: String) throws(ArcGISError) -> GeoJSONPage {
        let page = try featurePage(body, layer: layer, objectIdField: objectIdField)
        var text = ""
        var entries: [GeoJSONPage.Entry] = []
        entries.reserveCapacity(page.features.count)
        var offset = 0
        for feature in page.features {
            try FeatureGeoJSON.write(feature, fieldOrder: page.fieldOrder, layer: layer, to: &text)
            let end = text.utf8.count
            entries.append(.init(objectId: feature.objectId, start: offset, end: end))
            offset = end
        }
        return GeoJSONPage(
            bytes: Array(text.utf8), entries: entries, exceededTransferLimit: page.exceededTransferLimit,
            objectIdFieldName: page.objectIdFieldName, fieldOrder: page.fieldOrder)
    }
}
