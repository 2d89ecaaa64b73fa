/// The engine the worker holds: sends each target to the engine of its kind, so that the worker runs a
/// request against "a feature service" without knowing which protocol it speaks.
///
/// Adding a protocol is an engine registered here (`StandardEngines.router`, in FeatureServiceEngines); a
/// target of a kind no engine queries fails alone with ``FeatureServiceError/Code/unsupportedTarget``.
package struct FeatureServiceRouter: FeatureServiceEngine {
    private let engines: [ServiceKind: any FeatureServiceEngine]

    /// A router over `engines`; for a kind two engines claim, the first wins.
    package init(_ engines: [any FeatureServiceEngine]) {
        var byKind: [ServiceKind: any FeatureServiceEngine] = [:]
        for engine in engines {
            for kind in engine.kinds where byKind[kind] == nil { byKind[kind] = engine }
        }
        self.engines = byKind
    }

    package var kinds: Set<ServiceKind> { Set(engines.keys) }

    /// Each engine gets all the targets of its kinds in one call (so its bounds over a request see them all);
    /// the answers go back in the targets' order.
    package func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]] {
        // Every target of one kind an engine queries (the usual request): its answers as they are, without
        // the `unsupported` placeholders below (each one a message built, then thrown away).
        if let kind = targets.first?.kind, let engine = engines[kind], targets.allSatisfy({ $0.kind == kind }) {
            let answers = await engine.query(targets, query, budget: budget)
            if answers.count == targets.count { return answers }
            return targets.indices.map { index in
                index < answers.count ? answers[index] : [ServiceLayerOutcome(url: targets[index].url, result: .failure(.unsupported(targets[index])))]
            }
        }
        var outcomes = targets.map { [ServiceLayerOutcome(url: $0.url, result: .failure(.unsupported($0)))] }
        var indicesByKind: [ServiceKind: [Int]] = [:]
        for (index, target) in targets.enumerated() where engines[target.kind] != nil {
            indicesByKind[target.kind, default: []].append(index)
        }
        let calls = indicesByKind.compactMap { kind, indices in engines[kind].map { ($0, indices) } }
        if calls.count == 1, let (engine, indices) = calls.first {
            // One protocol (the usual request): answered in this task.
            for (index, answer) in zip(indices, await engine.query(indices.map { targets[$0] }, query, budget: budget)) {
                outcomes[index] = answer
            }
            return outcomes
        }
        let answers = await OrderedFanOut.map(calls) { engine, indices in
            Array(zip(indices, await engine.query(indices.map { targets[$0] }, query, budget: budget)))
        }
        for (index, answer) in answers.joined() { outcomes[index] = answer }
        return outcomes
    }
}
