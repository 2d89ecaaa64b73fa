import QueryLanguage

/// `orderByFields`: fields with directions. Ties are broken by OBJECTID ascending, so pages are stable.
struct SortOrder: Sendable, Hashable {
    struct Key: Sendable, Hashable {
        var field: Int
        var descending: Bool
    }

    let keys: [Key]

    /// Parses `Field [ASC|DESC], ...` against the layer's fields.
    init(_ text: String, layer: LayerDefinition) throws(ArcGISServiceError) {
        var keys: [Key] = []
        for part in text.split(separator: ",") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard let name = words.first, words.count <= 2 else {
                throw .invalidRequest("'orderByFields' is invalid: '\(part.prefix(60))'")
            }
            guard let field = layer.fieldIndex(String(name)) else {
                throw .invalidRequest("'orderByFields' names an unknown field: '\(name.prefix(60))'")
            }
            var descending = false
            if words.count == 2 {
                switch words[1].uppercased() {
                case "ASC": descending = false
                case "DESC": descending = true
                default: throw .invalidRequest("'orderByFields' direction must be ASC or DESC: '\(part.prefix(60))'")
                }
            }
            keys.append(Key(field: field, descending: descending))
        }
        self.keys = keys
    }

    /// Whether the order is the natural one (OBJECTID ascending), which needs no sorting.
    var isNatural: Bool { keys.isEmpty || (keys[0].field == 0 && !keys[0].descending) }

    var normalized: String { keys.map { "\($0.field)\($0.descending ? "D" : "A")" }.joined(separator: ",") }

    /// Sorts indices (ascending on entry) by the keys.
    func sort(_ indices: inout [Int32], source: FeatureSource) {
        if isNatural { return }
        if keys[0].field == 0 {
            indices.reverse()  // OBJECTID DESC: later keys cannot matter, ids are unique
            return
        }
        let columns = keys.map { key in indices.map { source.value(key.field, Int($0)) } }
        var order = Array(indices.indices)
        order.sort { a, b in
            for (position, key) in keys.enumerated() {
                let comparison = Self.compare(columns[position][a], columns[position][b])
                if comparison != 0 { return key.descending ? comparison > 0 : comparison < 0 }
            }
            return indices[a] < indices[b]
        }
        indices = order.map { indices[$0] }
    }

    /// NULL first, then numbers (integers and doubles together), dates, strings by code points.
    static func compare(_ a: AttributeValue, _ b: AttributeValue) -> Int {
        func rank(_ value: AttributeValue) -> Int {
            switch value {
            case .null: 0
            case .integer, .double: 1
            case .date: 2
            case .string: 3
            }
        }
        switch (a, b) {
        case (.integer(let x), .integer(let y)), (.date(let x), .date(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        default:
            if let x = number(a), let y = number(b) { return x < y ? -1 : (x > y ? 1 : 0) }
            return rank(a) - rank(b)
        }
    }

    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let x): Double(x)
        case .double(let x): x
        default: nil
        }
    }
}
