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
        var output = ""
        write(into: &output)
        return output
    }

    private func write(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .double(let value): output += value.isFinite ? Literal.canonical(value) : "null"
        case .string(let value): JSONString.append(value, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                JSONString.append(member.key, to: &output)
                output += ":"
                member.value.write(into: &output)
            }
            output += "}"
        }
    }
}
