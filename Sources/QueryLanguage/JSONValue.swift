import FeatureQuerySupport

/// A JSON value, as CQL2-JSON filters are built; ``serialized`` writes it compactly with correct escaping.
///
/// Object members keep their order (`{"op":..., "args":...}` reads as the CQL2 examples do).
package enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One `"key": value` pair of an object.
    package struct Member: Hashable, Sendable {
        package var key: String
        package var value: JSONValue
        package init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Compact JSON text (no spaces), UTF-8 characters unescaped except where JSON requires.
    package var serialized: String {
        var writer = JSONWriter(capacity: 128)
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.raw("null")
        case .bool(let value): writer.bool(value)
        case .integer(let value): writer.integer(value)
        case .double(let value): if value.isFinite { writer.rawText(Literal.canonical(value)) } else { writer.raw("null") }
        case .string(let value): writer.string(value)
        case .array(let items):
            writer.byte(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { writer.comma() }
                item.write(to: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        case .object(let members):
            writer.byte(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { writer.comma() }
                writer.key(escaping: member.key)
                member.value.write(to: &writer)
            }
            writer.byte(UInt8(ascii: "}"))
        }
    }
}
