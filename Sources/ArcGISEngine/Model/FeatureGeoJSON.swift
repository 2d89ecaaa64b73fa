import FeatureGeometry

/// Writes features as GeoJSON (RFC 7946): what callers of the worker receive when they ask for features.
///
/// Properties keep the service's field order; the object id becomes the feature's `id`. Geometries in Web
/// Mercator are projected to WGS 84; other spatial references cannot be written (query with `outSR=4326`).
public enum FeatureGeoJSON {
    /// A `FeatureCollection` of `features`.
    public static func featureCollection(_ features: [Feature], fieldOrder: [String], layer: String) throws(ArcGISError) -> String {
        var output = #"{"type":"FeatureCollection","features":["#
        for (index, feature) in features.enumerated() {
            if index > 0 { output += "," }
            try write(feature, fieldOrder: fieldOrder, layer: layer, to: &output)
        }
        output += "]}"
        return output
    }

    /// Appends one `Feature` object to `output`.
    public static func write(_ feature: Feature, fieldOrder: [String], layer: String, to output: inout String) throws(ArcGISError) {
        output += #"{"type":"Feature","id":"#
        output += String(feature.objectId)
        output += #","geometry":"#
        if let geometry = feature.geometry {
            do {
                try GeoJSON.write(geometry, to: &output)
            } catch {
                throw ArcGISError(
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
        JSONText.appendString(name, to: &output)
        output += ":"
        JSONText.append(value, to: &output)
    }
}

/// JSON text for attribute values.
enum JSONText {
    static func append(_ value: ParsedJSON, to output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): appendNumber(number, to: &output)
        case .string(let text): appendString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                append(item, to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                appendString(key, to: &output)
                output += ":"
                if let member = members[key] { append(member, to: &output) }
            }
            output += "}"
        }
    }

    static func appendNumber(_ number: Double, to output: inout String) {
        guard number.isFinite else {
            output += "null"
            return
        }
        if number == number.rounded(), abs(number) < 9.007_199_254_740_992e15 {
            output += String(Int64(number))
        } else {
            output += "\(number)"
        }
    }

    static func appendString(_ text: String, to output: inout String) {
        output += "\""
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += text
            output += "\""
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
