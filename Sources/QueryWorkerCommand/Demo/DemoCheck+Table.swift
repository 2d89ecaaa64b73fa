import QueryOutcomes

/// The feature-table checks: statistics rows against the brute-force groups, ordered ids against the
/// brute-force order.
extension DemoCheck {
    /// A statistics entry: the one layer, the selection's count, who computed, and every group's values
    /// (numbers within a relative 1e-9, for averages summed in another order; nulls as nulls).
    static func statisticsProblems(_ outcome: Outcome, _ want: ExpectedStatistics) -> [String] {
        guard let layers = outcome.layers, layers.count == 1, let layer = layers.first, layer.url == want.url else {
            return ["expected one entry for \(want.url), got \(outcome.layers?.map(\.url) ?? [])"]
        }
        if let error = layer.error { return ["\(layer.url) failed (\(error.code): \(error.message))"] }
        var problems: [String] = []
        if layer.count != want.count {
            problems.append("\(layer.url) count \(layer.count ?? -1), ground truth \(want.count)")
        }
        if layer.complete != true { problems.append("\(layer.url) is incomplete") }
        if layer.statisticsBy != want.by {
            problems.append("statistics computed by the \(layer.statisticsBy ?? "(absent)"), expected the \(want.by)")
        }
        var seen: Set<String> = []
        for row in layer.statistics ?? [] {
            let group = row.group[want.groupField]?.description ?? "(no \(want.groupField))"
            guard seen.insert(group).inserted else {
                problems.append("group \(group) appears twice")
                continue
            }
            guard let expected = want.groups[group] else {
                problems.append("group \(group) is not in the ground truth")
                continue
            }
            for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
                let got = row.values[name]
                if !matches(got, value) {
                    problems.append("\(group) \(name) is \(got?.description ?? "absent"), ground truth \(value.map { "\($0)" } ?? "null")")
                }
            }
        }
        let missing = Set(want.groups.keys).subtracting(seen)
        if !missing.isEmpty { problems.append("groups missing: \(missing.sorted().joined(separator: ", "))") }
        return problems
    }

    /// An ordered entry: `orderedBy` present and the ids in exactly the ground truth's order, its first
    /// `cut` when the request cut it (then marked incomplete, `max_features`).
    static func orderProblems(_ layer: Outcome.Layer, ids: [Int]?, truth: [Int], cut: Int?) -> [String] {
        var problems: [String] = []
        if layer.orderedBy == nil { problems.append("\(layer.url) does not say who ordered it (orderedBy absent)") }
        var expected = truth
        if let cut, cut < truth.count {
            expected = Array(truth.prefix(cut))
            if layer.complete != false || layer.incompleteReason != "max_features" {
                problems.append("\(layer.url) cut at maxFeatures \(cut) is not marked incomplete (max_features)")
            }
        } else if layer.complete != true {
            problems.append("\(layer.url) is incomplete")
        }
        guard let ids, ids == expected else {
            let got = (ids ?? []).prefix(expected.count).map(String.init).joined(separator: ", ")
            problems.append("\(layer.url) ids are [\(got)], expected [\(expected.prefix(12).map(String.init).joined(separator: ", "))]")
            return problems
        }
        return problems
    }

    /// Whether a cell holds `expected`: null for `nil`, else a number within a relative 1e-9.
    private static func matches(_ cell: Outcome.FieldValue?, _ expected: Double?) -> Bool {
        let number: Double?
        switch cell {
        case .integer(let value)?: number = Double(value)
        case .number(let value)?: number = value
        case .null?: number = nil
        default: return false
        }
        guard let expected else { return number == nil }
        guard let number else { return false }
        return abs(number - expected) <= 1e-9 * max(1, abs(expected))
    }
}
