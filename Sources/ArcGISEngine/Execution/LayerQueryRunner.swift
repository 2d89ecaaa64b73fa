import EngineExecution
import FeatureService
import Logging

/// Runs one query against one layer and returns a complete result: the count, the selection, or every
/// feature, with the evidence of completeness.
///
/// Features of a paginated layer are fetched by offset in parallel pages planned from the count
/// (``PagePlanner``); a layer without pagination gives its ids first and its features by `objectIds`
/// chunks. Whatever paging missed is fetched again by id before the result is returned.
///
/// What the result keeps is reserved from the request's ``ResultBudget`` as each page arrives: the page the
/// budget refuses stops the layer (no further pages are handed out, pages in flight are cancelled) and the
/// layer answers what it holds, marked ``Completeness/truncatedByBudget``.
///
/// A class: its requests run in child tasks and closures that each hold the runner, and copying a struct
/// this size (the layer's metadata, the query, the transport) for each of them cost more than the requests'
/// own bookkeeping.
final class LayerQueryRunner: Sendable {
    let transport: ArcGISSession
    let layer: LayerMetadata
    let origin: String
    let query: ServiceQuery
    /// The query's where clause as checked for the layer (``QueryCheck/check(_:for:)``).
    let clause: CheckedClause
    let configuration: ArcGISEngineConfiguration
    let budget: ResultBudget
    /// Hears of every page read, when the request asked for progress (see ``ProgressSink``).
    let progress: LayerProgress?
    let counter = RequestCounter()
    /// `<layer>/query`, built once: every request of the query is sent there.
    let endpoint: String
    /// Resolves what `result: related` follows (``ArcGISEngine/relatedTarget(_:origin:url:auth:)``, which reads
    /// the related table's metadata through the engine's cache); nil for other results. A closure, so the
    /// runner resolves it while the selection's ids are on their way.
    let relatedTarget: (@Sendable () async throws -> RelatedTarget)?

    init(
        transport: ArcGISSession, layer: LayerMetadata, origin: String, query: ServiceQuery, clause: CheckedClause,
        configuration: ArcGISEngineConfiguration, budget: ResultBudget,
        relatedTarget: (@Sendable () async throws -> RelatedTarget)? = nil
    ) {
        self.relatedTarget = relatedTarget
        self.budget = budget
        self.progress = budget.progress(of: ProgressLayer(url: layer.url, layerId: layer.id))
        self.transport = transport
        self.layer = layer
        self.origin = origin
        self.query = query
        self.clause = clause
        self.configuration = configuration
        endpoint = layer.queryEndpoint
    }

    func run() async throws -> ServiceLayerResult {
        let base = try QueryParameters.base(query, clause: clause, layer: layer)
        switch query.result {
        // A catalog lists layers instead of querying them (``ArcGISEngine/catalog(of:credential:)``); it never
        // reaches a runner, and would be answered as a count.
        case .count, .catalog:
            let count = try await fetchCount(base)
            return result(count: count, selection: .countOnly, completeness: Completeness(expected: count, received: count))
        case .ids where !query.orderBy.isEmpty:
            return try await runOrderedIDs(base)
        case .features where !query.orderBy.isEmpty:
            return try await runOrderedFeatures(base)
        case .ids:
            return try await runIDs(base)
        case .features:
            return try await runFeatures(base)
        case .statistics:
            return try await runStatistics(base)
        case .distinct:
            return try await runDistinct(base)
        case .extent:
            return try await runExtent(base)
        case .related:
            return try await runRelated(base)
        case .attachments:
            return try await runAttachments(base)
        }
    }

    // MARK: Selection

    private func runIDs(_ base: QueryParameters) async throws -> ServiceLayerResult {
        async let expected = optionalCount(base)
        let (ids, duplicates) = try await fetchIDs(base).objectIds.sortedUnique()
        let count = try await expected
        progress?.pageRead(features: ids.count, expected: count)
        var (kept, truncated) = cut(ids)
        if let stored = try await storedIDs(kept) {
            let completeness = Completeness(expected: count, received: ids.count, duplicates: duplicates, truncatedByLimit: truncated)
            return result(count: count ?? ids.count, selection: .stored(stored), completeness: completeness)
        }
        // An id is 8 bytes held, and about as many in a published result.
        let affordable = budget.reserve(count: kept.count, unit: 8)
        let cutByBudget = affordable < kept.count
        if cutByBudget { kept.removeLast(kept.count - affordable) }
        let completeness = Completeness(
            expected: count, received: ids.count, duplicates: duplicates, truncatedByLimit: truncated,
            truncatedByBudget: cutByBudget)
        return result(count: count ?? ids.count, selection: .objectIds(kept), completeness: completeness)
    }

    // MARK: Features

    /// Gathers every wanted feature: by offset pages where the layer paginates, else by object id. Kept
    /// features go through `stream`: held in `collector`, or appended to the store's writer.
    func collect(
        _ base: QueryParameters, into collector: inout GeoJSONPageCollector, stream: inout StoredLayerStream
    ) async throws -> (count: Int, completeness: Completeness) {
        layer.supportsPagination
            ? try await collectPaged(base, into: &collector, stream: &stream)
            : try await collectByIDs(base, into: &collector, stream: &stream)
    }

    private func collectPaged(
        _ base: QueryParameters, into collector: inout GeoJSONPageCollector, stream: inout StoredLayerStream
    ) async throws -> (count: Int, completeness: Completeness) {
        let count = try await fetchCount(base)
        let wanted = try wantedFeatures(of: count, stored: stream.hasStore)
        let output = base.withFeatureOutput(query, layer: layer)
        var planner = PagePlanner(
            wanted: wanted, pageSize: layer.maxRecordCount, extendPastWanted: query.maxFeatures == nil)
        let (layer, transport, endpoint, origin, counter, budget, progress) = (layer, transport, endpoint, origin, counter, budget, progress)
        var cutByBudget = false
        do {
            try await BoundedWork.run(
                limit: configuration.pageConcurrency, next: { budget.isSpent && !stream.isStreaming ? nil : planner.next() }
            ) { range in
                let parameters = QueryParameters.page(output, objectIdField: layer.objectIdField, offset: range.offset, count: range.count)
                return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(FeatureServiceError) in try GeoJSONPageCollector.decode(body, layer: layer)
                }
            } completed: { range, page in
                planner.record(range, received: GeoJSONPageCollector.rowCount(page), exceededTransferLimit: GeoJSONPageCollector.exceededTransferLimit(page))
                progress?.pageRead(features: GeoJSONPageCollector.rowCount(page), expected: wanted)
                // A streamed page is the writer's memory, not the result's.
                if !stream.isStreaming, !budget.reserve(GeoJSONPageCollector.heldBytes(page)) { throw BudgetSpent() }
                let kept = try collector.add(page, only: nil)
                try await stream.absorb(kept) { collector.handOver() }
            }
        } catch is BudgetSpent {
            cutByBudget = true
        }
        var repaired = 0
        if collector.count < wanted, !cutByBudget, stream.isStreaming || !budget.isSpent {
            (repaired, cutByBudget) = try await repair(base, output: output, wanted: wanted, collector: &collector, stream: &stream)
        }
        cutByBudget = cutByBudget || (budget.isSpent && !stream.isStreaming && collector.count < wanted)
        return (count, Completeness(
            expected: count, received: collector.count, duplicates: collector.duplicates, repaired: repaired,
            truncatedByLimit: wanted < count, truncatedByBudget: cutByBudget))
    }

    private func collectByIDs(
        _ base: QueryParameters, into collector: inout GeoJSONPageCollector, stream: inout StoredLayerStream
    ) async throws -> (count: Int, completeness: Completeness) {
        let (ids, duplicates) = try await fetchIDs(base).objectIds.sortedUnique()
        let wanted = try wantedFeatures(of: ids.count, stored: stream.hasStore)
        let cutByBudget = try await fetchByIDs(Array(ids.prefix(wanted)), into: &collector, stream: &stream)
        return (ids.count, Completeness(
            expected: ids.count, received: collector.count, duplicates: duplicates + collector.duplicates,
            truncatedByLimit: wanted < ids.count, truncatedByBudget: cutByBudget))
    }

    /// Fetches by id what paging missed; returns how many features it recovered, and whether the budget cut it.
    private func repair(
        _ base: QueryParameters, output: QueryParameters, wanted: Int, collector: inout GeoJSONPageCollector,
        stream: inout StoredLayerStream
    ) async throws -> (repaired: Int, cutByBudget: Bool) {
        let ids = try await fetchIDs(base).objectIds.sortedUnique().ids.prefix(wanted)
        let missing = ids.filter { !collector.contains($0) }
        guard !missing.isEmpty else { return (0, false) }
        let before = collector.count
        let cutByBudget = try await fetchByIDs(missing, into: &collector, stream: &stream)
        transport.logger.notice(
            "paging missed features; fetched them by object id",
            metadata: ["layer": "\(layer.url)", "missing": "\(missing.count)", "recovered": "\(collector.count - before)"])
        return (collector.count - before, cutByBudget)
    }

    /// Features by `objectIds` chunks, in parallel; chunks the service trimmed are asked again (three rounds).
    /// Returns true when the budget refused a chunk (the rest is not fetched).
    func fetchByIDs(
        _ ids: [Int64], into collector: inout GeoJSONPageCollector, stream: inout StoredLayerStream
    ) async throws -> Bool {
        let chunkSize = max(1, min(configuration.objectIdChunkSize, layer.maxRecordCount))
        var missing = ids
        for _ in 0..<3 where !missing.isEmpty {
            var chunks = stride(from: 0, to: missing.count, by: chunkSize).reversed().map {
                Array(missing[$0..<min($0 + chunkSize, missing.count)])
            }
            let (query, layer, transport, endpoint, origin, counter, budget, progress) = (query, layer, transport, endpoint, origin, counter, budget, progress)
            do {
                try await BoundedWork.run(
                    limit: configuration.pageConcurrency, next: { budget.isSpent && !stream.isStreaming ? nil : chunks.popLast() }
                ) { chunk in
                    let parameters = QueryParameters.objectIds(chunk[...], query: query, layer: layer)
                    return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                        body throws(FeatureServiceError) in try GeoJSONPageCollector.decode(body, layer: layer)
                    }
                } completed: { chunk, page in
                    progress?.pageRead(features: GeoJSONPageCollector.rowCount(page))
                    if !stream.isStreaming, !budget.reserve(GeoJSONPageCollector.heldBytes(page)) { throw BudgetSpent() }
                    let kept = try collector.add(page, only: Set(chunk))
                    try await stream.absorb(kept) { collector.handOver() }
                }
            } catch is BudgetSpent {
                return true
            }
            if budget.isSpent, !stream.isStreaming { return true }
            let before = missing.count
            missing = missing.filter { !collector.contains($0) }
            if missing.count == before { break }
        }
        return false
    }

    // MARK: Requests

    func fetchCount(_ base: QueryParameters) async throws -> Int {
        try await transport.fetch(endpoint, origin: origin, parameters: .countOnly(base), layer: layer.url, counter: counter) {
            body throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: layer.url)
        }
    }

    private func optionalCount(_ base: QueryParameters) async throws -> Int? {
        configuration.verifyCompleteness ? try await fetchCount(base) : nil
    }

    func fetchIDs(_ base: QueryParameters) async throws -> ObjectIDPage {
        try await transport.fetch(endpoint, origin: origin, parameters: .idsOnly(base), layer: layer.url, counter: counter) {
            body throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: layer.url)
        }
    }

    // MARK: Limits and results

    /// Thrown from a page's completion when the budget refuses the page: ends the page loop, which cancels
    /// the pages still in flight.
    struct BudgetSpent: Error {}

    private func cut(_ ids: [Int64]) -> ([Int64], Bool) {
        guard let max = query.maxFeatures, ids.count > max else { return (ids, false) }
        return (Array(ids.prefix(max)), true)
    }

    /// The features to fetch: all `count`, or the first `maxFeatures`. Without `maxFeatures`, more than a result
    /// may hold in memory is refused (`limit_exceeded`), unless the request has a store (`stored`): the layer
    /// then goes there (``StoredLayerStream`` switches at that count), however large.
    func wantedFeatures(of count: Int, stored: Bool = false) throws(FeatureServiceError) -> Int {
        if let max = query.maxFeatures { return min(count, max) }
        guard stored || count <= configuration.maxFeaturesInMemory else {
            throw FeatureServiceError(
                .limitExceeded,
                "\(layer.url) matches \(count) features, more than the \(configuration.maxFeaturesInMemory) one "
                    + "result may hold; ask for ids or a count, or set maxFeatures", layer: layer.url)
        }
        return count
    }

    func result(count: Int, selection: LayerSelection, completeness: Completeness) -> ServiceLayerResult {
        ServiceLayerResult(
            url: layer.url, layerId: layer.id, name: layer.name, objectIdField: layer.objectIdField, count: count,
            isComplete: completeness.isComplete, selection: selection, incompleteReason: completeness.incompleteReason,
            requests: counter.requestCount, retries: counter.retryCount)
    }
}
