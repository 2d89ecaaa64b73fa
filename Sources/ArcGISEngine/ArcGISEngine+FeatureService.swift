package import FeatureService

/// The ArcGIS engine behind the worker's seam: it queries `arcgis` targets and answers in the seam's types.
///
/// The conformance lives in this module: it needs the engine's fan-out with a shared ``ResultBudget``, and
/// every engine that joins the seam depends on the seam's vocabulary the same way, so the router can hand one
/// budget to all of them.
extension ArcGISEngine: FeatureServiceEngine {
    package var kinds: Set<ServiceKind> { [.arcgis] }

    package func query(_ targets: [ServiceTarget], _ query: ServiceQuery, budget: ResultBudget) async -> [[ServiceLayerOutcome]] {
        if query.result == .catalog { return await catalogs(of: targets, credential: query.credential) }
        // The layer bound counts every target's layers together, so it is checked before the fan-out.
        let parsed = targets.map { ArcGISTarget.from($0) }
        let arcgisTargets = parsed.compactMap { try? $0.get() }
        if mayExceedLayerLimit(arcgisTargets),
            let refusal = await refusalOverLayerLimit(arcgisTargets, credential: query.credential)
        {
            // One refusal per target that parsed, in order; a target that did not keeps its own error.
            var refusals = refusal.makeIterator()
            return zip(targets, parsed).map { target, parsed in
                switch parsed {
                case .failure(let error): [ServiceLayerOutcome(url: target.url, result: .failure(error))]
                case .success: refusals.next().map { [$0] } ?? []
                }
            }
        }
        return await OrderedFanOut.map(Array(zip(targets, parsed))) { target, parsed in
            switch parsed {
            case .success(let arcgis): await self.queryTarget(arcgis, query, budget: budget)
            case .failure(let error): [ServiceLayerOutcome(url: target.url, result: .failure(error))]
            }
        }
    }

    /// `result: catalog`: one outcome per target, listing its layers.
    private func catalogs(of targets: [ServiceTarget], credential: String?) async -> [[ServiceLayerOutcome]] {
        await OrderedFanOut.map(targets) { target in
            let arcgis: ArcGISTarget
            switch ArcGISTarget.from(target) {
            case .success(let parsed): arcgis = parsed
            case .failure(let error): return [ServiceLayerOutcome(url: target.url, result: .failure(error))]
            }
            let result: Result<ServiceLayerResult, FeatureServiceError>
            do throws(FeatureServiceError) {
                let entries = try await self.catalog(of: arcgis, credential: credential)
                result = .success(ServiceLayerResult(
                    url: target.url, count: entries.count, isComplete: true, selection: .catalog(entries)))
            } catch {
                result = .failure(error)
            }
            return [ServiceLayerOutcome(url: target.url, result: result)]
        }
    }
}

extension ArcGISTarget {
    /// The ArcGIS target a seam target names: its kind must be `arcgis` and its layers sublayer ids.
    static func from(_ target: ServiceTarget) -> Result<ArcGISTarget, FeatureServiceError> {
        guard target.kind == .arcgis else { return .failure(.unsupported(target)) }
        guard let names = target.layers else { return .success(ArcGISTarget(url: target.url)) }
        var ids: [Int] = []
        for name in names {
            guard let id = Int(name) else {
                return .failure(FeatureServiceError(
                    .invalidURL, "\(target.url): layer \"\(name)\" is not an ArcGIS sublayer id (a whole number)",
                    layer: target.url))
            }
            ids.append(id)
        }
        return .success(ArcGISTarget(url: target.url, layers: ids))
    }
}
