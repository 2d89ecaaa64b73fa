import EngineExecution
import FeatureService

extension LayerQueryRunner {
    /// `result: attachments`: the selection's object ids, then their attachments: by `queryAttachments` in
    /// chunks where the layer answers it (a chunk cut at the transfer limit is asked again in halves, a single
    /// feature from its own resource), else from each feature's `attachments` resource, in parallel within the
    /// page limit. A layer whose metadata says it has no attachments answers none without asking.
    func runAttachments(_ base: QueryParameters) async throws -> ServiceLayerResult {
        guard layer.hasAttachments else {
            var result = result(count: 0, selection: .attachments([]), completeness: Completeness(expected: 0, received: 0))
            result.aggregatedBy = .server
            return result
        }
        let features = try await fetchIDs(base).objectIds.sortedUnique().ids
        var read = AttachmentRead(
            features: features, chunkSize: min(configuration.objectIdChunkSize, layer.maxRecordCount),
            viaQuery: layer.queryCapabilities.queryAttachments, layerURL: layer.url)
        let (layer, transport, origin, counter, budget, limit, progress) = (layer, transport, origin, counter, budget, query.maxFeatures, progress)
        var cutByBudget = false
        do {
            try await BoundedWork.run(
                limit: configuration.pageConcurrency,
                next: { budget.isSpent || read.progress.passes(limit) ? nil : read.next() },
                execute: { step in try await Self.answer(step, layer: layer, session: transport, origin: origin, counter: counter) },
                completed: { (step: AttachmentStep, answer: AttachmentAnswer) in
                    let before = read.count
                    defer { progress?.pageRead(features: read.count - before) }
                    guard read.record(step, answer, reserve: { budget.reserve($0) }) else { throw AttachmentBudgetSpent() }
                })
        } catch is AttachmentBudgetSpent {
            cutByBudget = true
        }
        cutByBudget = cutByBudget || budget.isSpent
        let (groups, cut) = read.finish(limit: limit)
        var result = result(
            count: read.count, selection: .attachments(groups),
            completeness: Completeness(expected: nil, received: read.count, truncatedByLimit: cut, truncatedByBudget: cutByBudget))
        result.aggregatedBy = read.readFeatures ? .worker : .server
        return result
    }

    private static func answer(
        _ step: AttachmentStep, layer: LayerMetadata, session: ArcGISSession, origin: String, counter: RequestCounter
    ) async throws -> AttachmentAnswer {
        switch step {
        case .query(_, let features):
            var parameters = QueryParameters(fields: [
                ("f", "json"), ("objectIds", features.map(String.init).joined(separator: ",")), ("returnUrl", "true"),
            ])
            parameters.alwaysPOST = true
            return .page(
                try await session.fetch(layer.url + "/queryAttachments", origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(FeatureServiceError) in try ArcGISResponse.attachments(body, layer: layer.url)
                })
        case .feature(_, let objectId):
            return .feature(
                try await session.fetch(
                    "\(layer.url)/\(objectId)/attachments", origin: origin, parameters: QueryParameters(fields: [("f", "json")]),
                    layer: layer.url, counter: counter
                ) { body throws(FeatureServiceError) in try ArcGISResponse.featureAttachments(body, layer: layer.url) })
        }
    }
}

/// Thrown from a step's completion when the budget refuses what it holds.
private struct AttachmentBudgetSpent: Error {}
