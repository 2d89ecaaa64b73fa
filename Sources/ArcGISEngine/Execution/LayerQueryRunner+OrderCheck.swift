import FeatureService
import QueryLanguage

extension LayerQueryRunner {
    /// Whether the service's first `ids.count` rows in the query's order are exactly the first ones, proved
    /// with two counts rather than trusted:
    /// - no feature of the selection has a null in an order field (services place nulls as their database
    ///   does, PostgreSQL's placement is the contract's), and
    /// - exactly `ids.count − 1` features come before the last row returned (the order's comparison written
    ///   as a where clause), so no better row was skipped, whatever pages the service handed out.
    /// Rows already checked pairwise are in order; with these two, they are the answer. Order values the
    /// clause cannot write exactly (dates, which ArcGIS compares in the layer's time zone) leave it to the
    /// worker.
    func serverOrderHolds(_ lastKey: [AttributeValue], lastID: Int64, returned: Int) async throws -> Bool {
        let fields = query.orderBy.map(\.field)
        let anyNull = fields.map { "\($0) IS NULL" }.joined(separator: " OR ")
        guard let nulls = try await countWhere(anyNull), nulls == 0 else { return false }
        guard returned > 0 else { return true }
        guard let before = Self.precedes(query.orderBy, key: lastKey, objectIdField: layer.objectIdField, id: lastID),
            let ahead = try await countWhere(before)
        else { return false }
        return ahead == returned - 1
    }

    /// The selection's count with `extra` ANDed to its where clause; nil when the clause cannot be written.
    private func countWhere(_ extra: String) async throws -> Int? {
        var narrowed = query
        let original = clause.validated.map { "(\($0.arcGISSQL)) AND " } ?? ""
        do throws(QueryLanguageError) {
            narrowed.whereClause = try WhereClause(original + "(" + extra + ")")
        } catch {
            return nil
        }
        narrowed.result = .count
        let checked = try QueryCheck.check(narrowed, for: layer)
        return try await fetchCount(try QueryParameters.base(narrowed, clause: checked, layer: layer))
    }

    /// SQL that holds for the rows before `key` (and object id `id`, the tie-break) in `terms`' order:
    /// `F1 > v1 OR (F1 = v1 AND F2 < v2) OR … OR (… AND OBJECTID < id)` for descending F1 and ascending F2.
    static func precedes(_ terms: [OrderTerm], key: [AttributeValue], objectIdField: String, id: Int64) -> String? {
        var alternatives: [String] = []
        var equalities: [String] = []
        for (index, term) in terms.enumerated() {
            guard index < key.count, let literal = literal(key[index]) else { return nil }
            let strict = "\(term.field) \(term.descending ? ">" : "<") \(literal)"
            alternatives.append((equalities + [strict]).joined(separator: " AND "))
            equalities.append("\(term.field) = \(literal)")
        }
        alternatives.append((equalities + ["\(objectIdField) < \(id)"]).joined(separator: " AND "))
        return alternatives.map { "(\($0))" }.joined(separator: " OR ")
    }

    /// A value as an exact SQL literal; nil for null and dates.
    private static func literal(_ value: AttributeValue) -> String? {
        switch value {
        case .integer(let number): String(number)
        case .double(let number): number.isFinite ? "\(number)" : nil
        case .string(let text): "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        case .null, .date: nil
        }
    }
}
