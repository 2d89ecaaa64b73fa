import FeatureQuerySupport

/// What ArcGIS error bodies need of parsed JSON beyond the shared typed reads (FeatureQuerySupport's
/// `ParsedJSON+Access.swift`): codes sent as strings, and values described for messages.
extension ParsedJSON {
    /// An integer given as a number or as a string of digits ("498"), as some error bodies send codes.
    var lenientIntegerValue: Int? {
        if let integer = integerValue { return integer }
        if case .string(let text) = self { return Int(text.trimmingWhitespace()) }
        return nil
    }

    /// The value for messages: `null`, `true`, `the number 1.5`, `the string "abc"`, `an array of 3 values`,
    /// `an object`.
    var shapeDescription: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "\(value)"
        case .number(let value): return "the number \(value)"
        case .string(let value):
            return "the string \"\(ArcGISResponse.redactingTokens(String(value.prefix(40))))\""
        case .array(let items): return "an array of \(items.count) value\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }

    /// Text for an error's message or details: strings as they are, other values briefly.
    var messageText: String {
        switch self {
        case .string(let value): return value
        case .number(let value):
            if let integer = Int64(exactly: value) { return String(integer) }
            return "\(value)"
        case .bool(let value): return "\(value)"
        case .null: return "null"
        case .array, .object: return shapeDescription
        }
    }
}

/// The entries of a comma-separated list such as `capabilities` ("Query, Create,Update"), trimmed, empty
/// entries dropped.
func commaSeparated(_ text: String, lowercased: Bool = false) -> Set<String> {
    var entries: Set<String> = []
    for part in text.split(separator: ",") {
        let entry = String(part.trimmingWhitespace())
        guard !entry.isEmpty else { continue }
        entries.insert(lowercased ? entry.lowercased() : entry)
    }
    return entries
}
