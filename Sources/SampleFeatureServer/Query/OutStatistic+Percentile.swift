import QueryLanguage

/// PostgreSQL's `percentile_cont(p) WITHIN GROUP (ORDER BY f [DESC])` and `percentile_disc`, the reference
/// oracle's definitions (Esri documents the discrete one with the same example: 1…10, 0.9 → 9 ASC, 2 DESC).
extension OutStatistic {
    func percentileValue(_ indices: [Int32], source: FeatureSource) -> AttributeValue {
        var values: [AttributeValue] = []
        values.reserveCapacity(indices.count)
        for index in indices {
            let value = source.value(field, Int(index))
            if case .null = value { continue }
            values.append(value)
        }
        guard !values.isEmpty else { return .null }
        values.sort { descending ? SortOrder.compare($0, $1) > 0 : SortOrder.compare($0, $1) < 0 }
        let count = values.count
        if kind == .percentileDisc {
            // The first value whose cumulative share (i+1)/n reaches p; the epsilon absorbs p·n rounding.
            let position = Int((percentile * Double(count) - 1e-9).rounded(.up)) - 1
            return values[min(max(position, 0), count - 1)]
        }
        let position = percentile * Double(count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, count - 1)
        guard let low = Self.number(values[lower]), let high = Self.number(values[upper]) else { return .null }
        return .double(low + (position - Double(lower)) * (high - low))
    }
}
