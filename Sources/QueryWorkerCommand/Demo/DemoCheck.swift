import QueryOutcomes

/// Compares an outcome with what the demo expects, and says what differs.
///
/// The demo is a check as much as a show: counts and ids are compared with the dataset's ground truth
/// (computed by brute force, independently of the server's query path and the worker), so a demo that
/// prints `ok` everywhere has verified its answers, not only received some.
enum DemoCheck {
    /// What is wrong with `outcome`; empty when it is what `expected` describes.
    static func problems(_ outcome: Outcome, expected: DemoExpectation) -> [String] {
        switch expected {
        case .succeeded(let layers):
            return status(outcome, "succeeded") + layerProblems(outcome, layers)
        case .partial(let layers):
            return status(outcome, "partial") + layerProblems(outcome, layers)
        case .superseded(let newer):
            var problems = status(outcome, "superseded")
            if outcome.supersededBy != newer {
                problems.append("supersededBy is \(outcome.supersededBy ?? "absent"), expected \(newer)")
            }
            return problems
        case .rejected(let code):
            var problems = status(outcome, "rejected")
            if outcome.error?.code != code { problems.append("error code is \(outcome.error?.code ?? "absent"), expected \(code)") }
            return problems
        case .catalog(let url, let ids):
            var problems = status(outcome, "succeeded")
            guard let entry = outcome.layers?.first, outcome.layers?.count == 1, entry.url == url else {
                return problems + ["expected one catalog entry for \(url), got \(outcome.layers?.map(\.url) ?? [])"]
            }
            let listed = (entry.catalog ?? []).map(\.id)
            if Set(listed) != Set(ids) || listed.count != ids.count {
                problems.append("\(url) lists \(listed.count) collections, expected \(ids.count) (\(Set(ids).symmetricDifference(listed).sorted().prefix(5).joined(separator: ", ")) differ)")
            }
            return problems
        case .statistics(let want):
            let problems = status(outcome, "succeeded")
            // An error outcome has no layers: its status line says all there is.
            guard outcome.layers != nil || problems.isEmpty else { return problems }
            return problems + statisticsProblems(outcome, want)
        case .related(let want):
            let problems = status(outcome, "succeeded")
            guard outcome.layers != nil || problems.isEmpty else { return problems }
            return problems + relatedProblems(outcome, want)
        }
    }

    static func status(_ outcome: Outcome, _ expected: String) -> [String] {
        guard outcome.status != expected else { return [] }
        let reason = outcome.error.map { " (\($0.code): \($0.message))" } ?? ""
        return ["status is \(outcome.status)\(reason), expected \(expected)"]
    }

    private static func layerProblems(_ outcome: Outcome, _ expected: [ExpectedLayer]) -> [String] {
        let layers = outcome.layers ?? []
        guard layers.map(\.url) == expected.map(\.url) else {
            return ["layers are \(layers.map(\.url)), expected \(expected.map(\.url))"]
        }
        var problems: [String] = []
        for (layer, want) in zip(layers, expected) {
            guard let truth = want.truth else {
                if layer.status != "failed" {
                    problems.append("\(layer.url) \(layer.status), expected it to fail")
                } else if let code = want.failureCode, layer.error?.code != code {
                    problems.append("\(layer.url) failed with \(layer.error?.code ?? "no error code"), expected \(code)")
                }
                continue
            }
            if let error = layer.error {
                problems.append("\(layer.url) failed (\(error.code): \(error.message))")
                continue
            }
            if layer.count != truth.count {
                problems.append("\(layer.url) count \(layer.count ?? -1), ground truth \(truth.count)")
            }
            if let site = want.filteredBy, layer.filteredBy != site {
                problems.append("\(layer.url) filtered by the \(layer.filteredBy ?? "(absent)"), expected the \(site)")
            }
            let ids = Self.ids(of: layer)
            if want.ordered {
                problems += orderProblems(layer, ids: ids, truth: truth, cut: want.maxFeatures)
                continue
            }
            if let cut = want.maxFeatures, cut < truth.count {
                if layer.complete != false || layer.incompleteReason != "max_features" {
                    problems.append("\(layer.url) cut at maxFeatures \(cut) is not marked incomplete (max_features)")
                }
                let held = Set(ids ?? [])
                if ids?.count != cut || held.count != cut || !held.isSubset(of: truth) {
                    problems.append("\(layer.url) holds \(ids?.count ?? 0) ids, expected \(cut) distinct matches")
                }
                continue
            }
            if layer.complete != true { problems.append("\(layer.url) is incomplete") }
            if want.idsReturned, ids.map({ $0.sorted() }) != truth {
                problems.append("\(layer.url) ids differ from the ground truth (\(ids?.count ?? 0) ids, \(truth.count) expected)")
            }
        }
        return problems
    }

    /// An entry's ids as integers: ArcGIS object ids in order, or OGC feature ids (the sample server's are
    /// its OBJECTIDs) in arrival order; `nil` when it has neither, or an id that is not an integer.
    static func ids(of layer: Outcome.Layer) -> [Int]? {
        if let objectIds = layer.objectIds { return objectIds.map(Int.init) }
        guard let featureIds = layer.featureIds else { return nil }
        var ids: [Int] = []
        for id in featureIds {
            guard case .integer(let value)? = id else { return nil }
            ids.append(Int(value))
        }
        return ids
    }
}
