import QueryLanguage

/// Rows made from many features: grouped statistics (one row per group) or distinct value combinations.
/// Built in memory, then ordered by `orderByFields` over its own columns, as ArcGIS allows with
/// outStatistics ("only outStatisticFieldNames or group-by fields").
struct AggregateTable: Sendable {
    struct Column: Sendable {
        /// The name written in `fields` and the attributes.
        let name: String
        let alias: String
        let type: FieldType
        let length: Int?
        /// The name the client asked for (statistics may be renamed by a quirk); orderByFields matches it.
        let requestedName: String
    }

    var columns: [Column]
    var rows: [[AttributeValue]]
    /// How many leading columns are group (or distinct) keys: the default order.
    let keyCount: Int

    /// One row per group of the selection (one row in all without group fields). A NULL key is a group of its own.
    static func statistics(
        _ statistics: [OutStatistic], groupBy: [Int], layer: PublishedLayer, selection: [Int32], upperCaseNames: Bool
    ) -> AggregateTable {
        let definition = layer.definition
        var columns = groupBy.map { field(definition.fields[$0]) }
        for statistic in statistics {
            let name = upperCaseNames ? statistic.outName.uppercased() : statistic.outName
            columns.append(Column(name: name, alias: name, type: statistic.resultType(definition), length: nil,
                                  requestedName: statistic.outName))
        }
        let groups = group(selection, by: groupBy, source: layer.source)
        let rows = groups.map { group in group.key + statistics.map { $0.compute(group.indices, source: layer.source) } }
        return AggregateTable(columns: columns, rows: rows, keyCount: groupBy.count)
    }

    /// The distinct combinations of `fields` over the selection (NULL is a value).
    static func distinct(_ fields: [Int], layer: PublishedLayer, selection: [Int32]) -> AggregateTable {
        let columns = fields.map { field(layer.definition.fields[$0]) }
        let rows = group(selection, by: fields, source: layer.source).map(\.key)
        return AggregateTable(columns: columns, rows: rows, keyCount: fields.count)
    }

    private static func field(_ field: FieldDefinition) -> Column {
        Column(name: field.name, alias: field.alias, type: field.type, length: field.length, requestedName: field.name)
    }

    /// The selection split by the values of `fields`, in order of first appearance.
    private static func group(_ selection: [Int32], by fields: [Int], source: FeatureSource) -> [(key: [AttributeValue], indices: [Int32])] {
        guard !fields.isEmpty else { return [([], selection)] }
        var positions: [[AttributeValue]: Int] = [:]
        var groups: [(key: [AttributeValue], indices: [Int32])] = []
        for index in selection {
            let key = fields.map { source.value($0, Int(index)) }
            if let position = positions[key] {
                groups[position].indices.append(index)
            } else {
                positions[key] = groups.count
                groups.append((key, [index]))
            }
        }
        return groups
    }

    /// Orders the rows by `orderByFields` (over the columns, ignoring case), then by the key columns
    /// ascending and the whole row, so that the order (and every page) is deterministic.
    mutating func sort(_ orderText: String?) throws(ArcGISServiceError) {
        var keys: [(column: Int, descending: Bool)] = []
        for part in (orderText ?? "").split(separator: ",") {
            let words = part.split(separator: " ", omittingEmptySubsequences: true)
            guard let name = words.first, words.count <= 2 else {
                throw .invalidRequest("'orderByFields' is invalid: '\(part.prefix(60))'")
            }
            let wanted = name.lowercased()
            guard let column = columns.firstIndex(where: { $0.requestedName.lowercased() == wanted || $0.name.lowercased() == wanted }) else {
                throw .invalidRequest(
                    "'orderByFields' with outStatistics or returnDistinctValues may name only group-by fields, outFields or outStatisticFieldNames: '\(name.prefix(60))'")
            }
            var descending = false
            if words.count == 2 {
                switch words[1].uppercased() {
                case "ASC": descending = false
                case "DESC": descending = true
                default: throw .invalidRequest("'orderByFields' direction must be ASC or DESC: '\(part.prefix(60))'")
                }
            }
            keys.append((column, descending))
        }
        for column in 0..<columns.count where !keys.contains(where: { $0.column == column }) {
            keys.append((column, false))
        }
        rows.sort { a, b in
            for key in keys {
                let comparison = SortOrder.compare(a[key.column], b[key.column])
                if comparison != 0 { return key.descending ? comparison > 0 : comparison < 0 }
            }
            return false
        }
    }
}
