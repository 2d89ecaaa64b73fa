/// The engine the worker holds: sends each target to the engine of its kind, so that the worker runs a
/// request against "a feature service" without knowing which protocol it speaks.
///
/// Adding a protocol is an engine registered here (`StandardEngines.router`, in FeatureServiceEngines); a
/// target of a kind no engine queries fails alone with ``FeatureServiceError/Code/unsupportedTarget``.
public struct FeatureServiceRouter: FeatureServiceEngine {
    private let engines: [ServiceKind: any FeatureServiceEngine]

    /// A router over `engines`; for a kind two engines claim, the first wins.
    public init(_ engines: [any FeatureServiceEngine]) {
        var byKind: [ServiceKind: any FeatureServiceEngine] = [:]
        for engine in engines {
            for kind in engine.kinds where byKind[kind] == nil { byKind[kind] = engine }
        }
        self.engines = byKind
    }

    public var kinds: Set<ServiceKind> { Set(engines.keys) }

    public func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [ServiceLayerOutcome] {
        await TargetFanOut.outcomes(of: targets) { target in
            guard let engine = engines[target.kind] else {
                return [ServiceLayerOutcome(url: target.url, result: .failure(.unsupported(target)))]
            }
            return await engine.query([target], query, budget: budget)
        }
    }
}

/// Runs one closure per target at once and puts the outcomes back in the targets' order: what every engine's
/// fan-out over targets needs.
package enum TargetFanOut {
    package static func outcomes(
        of targets: [ServiceTarget], _ body: @escaping @Sendable (ServiceTarget) async -> [ServiceLayerOutcome]
    ) async -> [ServiceLayerOutcome] {
        // One target (the usual request) runs in this task: a task group costs more than the rest.
        if targets.count == 1 { return await body(targets[0]) }
        return await withTaskGroup(of: (Int, [ServiceLayerOutcome]).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    // The outcome first, the tuple after (Swift 6.3.1 -O miscompiles the other form; see
                    // ArcGISEngine.queryLayers).
                    let outcomes = await body(target)
                    return (index, outcomes)
                }
            }
            var outcomes = [[ServiceLayerOutcome]](repeating: [], count: targets.count)
            for await (index, layerOutcomes) in group { outcomes[index] = layerOutcomes }
            return outcomes.flatMap { $0 }
        }
    }
}
