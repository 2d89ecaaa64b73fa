/// A parsed JSON value: what every module of the package reads JSON into (requests, settings, service
/// responses, geometries).
///
/// It lives in this foundation module so that reading JSON does not mean importing geometry. It is one of the
/// few public declarations here because embedders see it: FeatureGeometry's decoders take it (a `Decodable`
/// feature model can hold `let geometry: ParsedJSON?` and pass it to `EsriJSON.decode(_:)`), and the
/// ArcGIS engine's features keep their attributes as it. Numbers are Doubles, as coordinates are; object
/// members keep the last of duplicate keys. (Named apart from QueryLanguage's `JSONValue`, which builds
/// CQL2-JSON with ordered members, so a file can import both modules.)
package enum ParsedJSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ParsedJSON])
    case object([String: ParsedJSON])

    /// Reads JSON text (RFC 8259) from UTF-8 bytes, such as `[UInt8]` or a slice of it, within `limits`.
    ///
    /// The package's own entry point; FeatureGeometry's public `init(parsing:limits:)` wraps it and turns the
    /// error into a `GeometryError` for embedders.
    package init(reading bytes: some Collection<UInt8>, limits: JSONReadingLimits = .default) throws(JSONReadError) {
        self = try JSONReader.parse(bytes, limits: limits)
    }

    /// Reads JSON text (RFC 8259) from a byte array within `limits`: the same as the generic reader, without
    /// its generic dispatch (messages and response bodies arrive as arrays and ranges of them).
    package init(reading bytes: [UInt8], limits: JSONReadingLimits = .default) throws(JSONReadError) {
        self = try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try JSONReader.parse(contiguous: buffer, limits: limits) }
        }.get()
    }

    /// Reads JSON text (RFC 8259) from a range of a byte array within `limits`, as ``init(reading:limits:)``.
    package init(reading bytes: ArraySlice<UInt8>, limits: JSONReadingLimits = .default) throws(JSONReadError) {
        self = try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try JSONReader.parse(contiguous: buffer, limits: limits) }
        }.get()
    }

    /// Reads JSON text (RFC 8259) from bytes in memory within `limits`, as ``init(reading:limits:)``.
    package init(reading bytes: UnsafeBufferPointer<UInt8>, limits: JSONReadingLimits = .default) throws(JSONReadError) {
        self = try JSONReader.parse(contiguous: bytes, limits: limits)
    }

    /// Reads JSON text (RFC 8259) within `limits`.
    package init(reading text: String, limits: JSONReadingLimits = .default) throws(JSONReadError) {
        self = try JSONReader.parse(text, limits: limits)
    }

    /// The member named `key` of an object; `nil` for a missing member or a value that is not an object.
    package subscript(key: String) -> ParsedJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// A short name of the value's kind, for error messages ("a string", "an array of 3").
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): "the number \(value)"
        case .string(let value): "the string \"\(value.prefix(40))\""
        case .array(let items): "an array of \(items.count)"
        case .object: "an object"
        }
    }
}

extension ParsedJSON: Codable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ParsedJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ParsedJSON].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
