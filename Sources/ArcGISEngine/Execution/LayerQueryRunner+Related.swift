import EngineExecution
import Logging
import FeatureService

extension LayerQueryRunner {
    /// `result: related`: the selection's object ids, then their related records, complete at any size.
    ///
    /// Origins go to `queryRelatedRecords` in chunks, in parallel within the page limit (and the host's).
    /// Where the service counts related records (`supportsAdvancedQueryRelated`), each chunk is counted first,
    /// its record requests are planned to fit the transfer limit, and the counts check what arrived. An
    /// answer cut at the transfer limit all the same is continued by `resultOffset` where the service pages
    /// related records; elsewhere its chunk is split in halves and asked again, down to one origin, whose
    /// records are then read from the related table by key (ids first, which no transfer limit bounds).
    /// `maxFeatures` bounds the records in all, in origin order: once the finished chunks hold more, no
    /// further chunk is asked.
    func runRelated(_ base: QueryParameters) async throws -> ServiceLayerResult {
        guard let resolve = relatedTarget else {
            throw FeatureServiceError(.invalidQuery, "result related needs a relationship to follow", layer: layer.url)
        }
        // The relationship and the related table's metadata are resolved while the ids are fetched; a bad
        // relationship still fails first.
        async let ids = fetchIDs(base)
        let target = try await resolve()
        let origins = try await ids.objectIds.sortedUnique().ids
        // Counted chunks are bigger: a count answer has one number per origin, never cut at the transfer limit.
        let counts = layer.queryCapabilities.advancedQueryRelated
        let chunkSize = min(configuration.objectIdChunkSize, target.table.maxRecordCount) * (counts ? 4 : 1)
        var read = RelatedRead(
            origins: origins, chunkSize: max(1, chunkSize), paginates: layer.queryCapabilities.queryRelatedPagination,
            counts: counts, target: target)
        let requests = RelatedRequests(target: target, layer: layer, session: transport, origin: origin, counter: counter)
        let (budget, limit, logger, layerURL, progress) = (budget, query.maxFeatures, transport.logger, layer.url, progress)
        var cutByBudget = false
        do {
            // Up to the host limit: a related read is many small answers (attribute rows, counts), each
            // waiting mostly on the service's latency; the host limiter still shares the host with others.
            try await BoundedWork.run(
                limit: max(configuration.pageConcurrency, configuration.maxConcurrentRequestsPerHost),
                next: { budget.isSpent || read.progress.passes(limit) ? nil : read.next() },
                execute: { step in try await requests.answer(step) },
                completed: { (step: RelatedStep, answer: RelatedAnswer) in
                    if case .keyIds(_, let originId) = step, case .keyIds(let ids) = answer {
                        logger.notice(
                            "related records passed the transfer limit for one origin; reading them from the related table by key",
                            metadata: ["layer": "\(layerURL)", "objectId": "\(originId)", "related": "\(ids.count)"])
                    }
                    let before = read.collector.count
                    defer { progress?.pageRead(features: read.collector.count - before) }
                    guard read.record(step, answer, reserve: { budget.reserve($0) }) else { throw RelatedBudgetSpent() }
                })
        } catch is RelatedBudgetSpent {
            cutByBudget = true
        }
        cutByBudget = cutByBudget || budget.isSpent
        let (groups, cutByLimit) = read.collector.finish(limit: limit)
        let held = read.collector.count
        var reason: IncompleteReason?
        if cutByBudget {
            reason = .resultBudget
        } else if cutByLimit {
            reason = .maxFeatures
        } else if let mismatch = read.countMismatch() {
            reason = .countMismatch
            transport.logger.warning(
                "the service's related record counts disagree with the records that arrived",
                metadata: ["layer": "\(layer.url)", "relationship": "\(target.relationship.name)", "origins": "\(mismatch)"])
        }
        var result = result(
            count: max(read.expectedTotal ?? 0, held), selection: .related(RelatedSelection(relatedTable: target.table.url, groups: groups)),
            completeness: Completeness(expected: nil, received: held))
        result.isComplete = reason == nil
        result.incompleteReason = reason
        result.aggregatedBy = read.usedTableQuery ? .worker : .server
        if !target.orderBy.isEmpty {
            result.orderedBy = layer.queryCapabilities.advancedQueryRelated && read.collector.arrivedOrdered && !read.usedTableQuery
                ? .server : .worker
        }
        return result
    }
}

/// Thrown from a step's completion when the budget refuses what it holds: ends the read, cancelling the
/// steps in flight.
private struct RelatedBudgetSpent: Error {}
