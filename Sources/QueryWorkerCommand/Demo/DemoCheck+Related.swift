import QueryOutcomes

/// The related-records check: every origin's records, by OBJECTID, in exactly the ground truth's order.
extension DemoCheck {
    static func relatedProblems(_ outcome: Outcome, _ want: ExpectedRelated) -> [String] {
        guard let layers = outcome.layers, layers.count == 1, let layer = layers.first, layer.url == want.url else {
            return ["expected one entry for \(want.url), got \(outcome.layers?.map(\.url) ?? [])"]
        }
        if let error = layer.error { return ["\(layer.url) failed (\(error.code): \(error.message))"] }
        var problems: [String] = []
        let total = want.groups.reduce(0) { $0 + $1.records.count }
        if layer.count != total { problems.append("\(layer.url) count \(layer.count ?? -1), ground truth \(total)") }
        if layer.complete != true { problems.append("\(layer.url) is incomplete") }
        if layer.relatedTable != want.relatedTable {
            problems.append("related table \(layer.relatedTable ?? "(absent)"), expected \(want.relatedTable)")
        }
        if layer.relatedBy == nil { problems.append("\(layer.url) does not say who joined (relatedBy absent)") }
        if want.ordered, layer.orderedBy == nil { problems.append("\(layer.url) does not say who ordered (orderedBy absent)") }
        let groups = layer.related ?? []
        let origins = groups.map { Int($0.objectId) }
        guard origins == want.groups.map(\.objectId) else {
            return problems + ["origins are \(origins.prefix(12)), expected \(want.groups.map(\.objectId).prefix(12))"]
        }
        for (group, expected) in zip(groups, want.groups) {
            let ids = group.records.map { record -> Int in
                if case .integer(let id)? = record.attributes?["OBJECTID"] { Int(id) } else { -1 }
            }
            if ids != expected.records || group.count != expected.records.count {
                problems.append("\(group.objectId): records \(ids.prefix(12)) (count \(group.count)), expected \(expected.records.prefix(12))")
            }
        }
        return problems
    }
}
