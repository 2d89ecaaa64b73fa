import QueryLanguage

/// PostgreSQL's ordered-set aggregates over sorted numeric values (ascending, nulls already skipped).
enum Percentiles {
    /// `percentile_cont(p)`: linear interpolation between the values at rows ⌊p(n−1)⌋ and ⌈p(n−1)⌉ (0-based),
    /// computed as PostgreSQL computes it (`lo + (hi − lo) × fraction`); always a double, null without values.
    static func continuous(_ p: Double, sorted values: [AttributeValue]) -> AttributeValue {
        guard let first = values.first.flatMap(number) else { return .null }
        let position = p * Double(values.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Int(position.rounded(.up))
        guard lower >= 0, upper < values.count, let low = number(values[lower]) else { return .double(first) }
        guard upper > lower, let high = number(values[upper]) else { return .double(low) }
        return .double(low + (high - low) * (position - Double(lower)))
    }

    /// `percentile_disc(p)`: the first value whose cumulative distribution reaches `p`, the value at row
    /// ⌈p·n⌉ (1-based); it keeps its type (an integer stays an integer). Null without values.
    static func discrete(_ p: Double, sorted values: [AttributeValue]) -> AttributeValue {
        guard !values.isEmpty else { return .null }
        let row = Int((p * Double(values.count)).rounded(.up))
        return values[min(max(row, 1), values.count) - 1]
    }

    private static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        case .null, .string, .date: nil
        }
    }
}
