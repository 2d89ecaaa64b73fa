import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// Writes features as GeoJSON (RFC 7946): what callers of the worker receive when they ask for features.
///
/// Properties keep the service's field order; the object id becomes the feature's `id`. Geometries in Web
/// Mercator are projected to WGS 84; other spatial references cannot be written (query with `outSR=4326`).
enum FeatureGeoJSON {
    /// Appends one `Feature` object to `output`.
    static func write(_ feature: Feature, fieldOrder: [String], layer: String, to output: inout String) throws(FeatureServiceError) {
        output += #"{"type":"Feature","id":"#
        output += String(feature.objectId)
        output += #","geometry":"#
        if let geometry = feature.geometry {
            do {
                try GeoJSON.write(geometry, to: &output)
            } catch {
                throw FeatureServiceError(
                    .geometryConversion,
                    "feature \(feature.objectId) of \(layer) cannot be written as GeoJSON: \(error)", layer: layer)
            }
        } else {
            output += "null"
        }
        output += #","properties":{"#
        var first = true
        var written = 0
        for name in fieldOrder {
            guard let value = feature.attributes[name] else { continue }
            appendMember(name, value, first: &first, to: &output)
            written += 1
        }
        if written < feature.attributes.count {
            // Attributes the response's field list did not name, in a stable order.
            for name in feature.attributes.keys.sorted() where !fieldOrder.contains(name) {
                if let value = feature.attributes[name] { appendMember(name, value, first: &first, to: &output) }
            }
        }
        output += "}}"
    }

    private static func appendMember(_ name: String, _ value: ParsedJSON, first: inout Bool, to output: inout String) {
        if !first { output += "," }
        first = false
        JSONString.append(name, to: &output)
        output += ":"
        output += value.jsonText
    }
}
