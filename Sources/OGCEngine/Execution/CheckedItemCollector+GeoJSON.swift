import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// Reading a feature's geometry and writing the feature as the answer publishes it.
extension CheckedItemCollector {
    /// The feature's geometry in WGS 84; nil when absent, null or unreadable.
    static func geometry(_ feature: RawFeature) -> Geometry? {
        guard let value = feature.parsed(feature.geometry), case .object = value else { return nil }
        return try? GeoJSON.decode(value, spatialReference: .wgs84)
    }

    /// The feature as one compact GeoJSON Feature: `id` as the server gave it, the geometry's bytes as they
    /// came (CRS84 lon/lat) or null, the properties' bytes, or those `outFields` keeps (case-insensitive,
    /// written again from `properties`; nil keeps all).
    static func write(
        _ feature: RawFeature, id: FeatureID?, properties: [String: ParsedJSON]?, outFields: [String]?, returnGeometry: Bool
    ) -> [UInt8] {
        var json = JSONWriter(capacity: feature.bytes.count + 48)
        json.raw(#"{"type":"Feature","#)
        switch id {
        case .integer(let value)?:
            json.key("id")
            json.integer(value)
            json.comma()
        case .string(let value)?:
            json.key("id")
            json.string(value)
            json.comma()
        case nil: break
        }
        json.key("geometry")
        if returnGeometry { feature.writeCompacted(feature.geometry, to: &json) } else { json.raw("null") }
        json.raw(#","properties":"#)
        if let outFields {
            let wanted = Set(outFields.map { $0.lowercased() })
            json.value(.object((properties ?? [:]).filter { wanted.contains($0.key.lowercased()) }))
        } else if feature.properties != nil {
            feature.writeCompacted(feature.properties, to: &json)
        } else {
            json.raw("{}")
        }
        json.byte(UInt8(ascii: "}"))
        return json.bytes
    }
}
