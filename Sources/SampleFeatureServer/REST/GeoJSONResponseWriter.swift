import FeatureQuerySupport

/// Writes `f=geojson` query responses: a FeatureCollection in WGS 84 with each feature's OBJECTID as its
/// `id`, and `"properties":{"exceededTransferLimit":true}` on the collection when more features remain,
/// as ArcGIS does.
enum GeoJSONResponseWriter {
    static func features(_ request: LayerQueryParameters, _ layer: PublishedLayer, _ selection: [Int32], _ page: QueryPage) -> [UInt8] {
        let definition = layer.definition
        let source = layer.source
        var json = JSONWriter(capacity: 256 + page.range.count * 480)
        json.raw("{\"type\":\"FeatureCollection\",\"features\":[")
        for position in page.range {
            let index = Int(selection[position])
            if position > page.range.lowerBound { json.raw(",") }
            json.raw("{\"type\":\"Feature\",\"id\":")
            json.integer(index + 1)
            json.raw(",\"geometry\":")
            if request.returnGeometry, definition.geometryType != nil {
                json.geoJSONGeometry(source, index, layerReference: definition.spatialReference)
            } else {
                json.raw("null")
            }
            json.raw(",\"properties\":{")
            for (fieldPosition, field) in request.outFields.enumerated() {
                if fieldPosition > 0 { json.raw(",") }
                json.raw(layer.attributeKeys[field])
                source.writeValue(field, index, to: &json)
            }
            json.raw("}}")
        }
        json.raw("]")
        if page.reportLimit {
            json.raw(",\"properties\":{\"exceededTransferLimit\":")
            json.bool(page.exceededTransferLimit)
            json.raw("}")
        }
        json.raw("}")
        return json.bytes
    }
}
