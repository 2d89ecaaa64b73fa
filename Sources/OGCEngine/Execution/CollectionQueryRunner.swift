import EngineExecution
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Logging

/// Runs one query against one collection and answers its ``ServiceLayerResult``: pages along `next` (one
/// sequence per bbox, two for a box across the antimeridian, or concurrent tiles for a large collection),
/// gathers through a ``CheckedItemCollector`` and judges completeness.
///
/// `count` in the answer: the server's `numberMatched` when the server evaluated the whole filter (or there
/// was none) and no feature it returned failed the local re-check; otherwise the features that passed the
/// local filter in the pages read, which is exact when paging ran to the end and a lower bound when the
/// result was cut (`complete: false`, reason `max_features` or `result_budget`).
struct CollectionQueryRunner: Sendable {
    let transport: OGCSession
    let service: ServiceDescription
    let collection: CollectionMetadata
    let queryables: Queryables?
    let query: ServiceQuery
    let budget: ResultBudget
    var configuration: OGCEngineConfiguration { transport.configuration }

    var layer: String { collection.url }
    /// Hears of every page read, when the request asked for progress (see ``ProgressSink``).
    var progress: LayerProgress? { budget.progress(of: ProgressLayer(url: collection.url, collection: collection.id)) }

    func run() async throws -> ServiceLayerResult {
        if query.result == .related || query.result == .attachments {
            let what = query.result == .related ? "related records" : "attachments"
            throw FeatureServiceError(
                .unsupportedQuery,
                "\(layer) is an OGC API collection, and OGC API Features has no \(what); ask an ArcGIS layer for them",
                layer: layer)
        }
        guard collection.itemType.lowercased() == "feature" else {
            throw FeatureServiceError(
                .unsupportedLayer, "\(layer) holds \(collection.itemType) items, not features", layer: layer)
        }
        let filter = try FilterPlan.plan(query.whereClause, conformance: service.conformance, queryables: queryables, layer: layer)
        let spatial = try SpatialPlan.plan(
            query.geometry, relation: query.spatialRelationship, layer: layer, collectionCRS: collection.crs,
            supportsCRS: service.conformance.supportsCRS)
        let serverComplete = filter.serverEvaluatesAll && spatial.serverEvaluatesAll && query.objectIds == nil
        let keep: CheckedItemCollector.Keep
        var maxFeatures = query.maxFeatures
        switch query.result {
        case .count, .catalog, .statistics, .extent, .distinct, .related, .attachments: keep = .nothing
        case .ids: keep = .ids
        case .features:
            let fields = query.outFields.contains("*") ? nil : query.outFields
            keep = .features(outFields: fields, returnGeometry: query.returnGeometry)
            // With a store, a collection past what memory may hold is streamed there (the stream switches at
            // that count), not refused.
            maxFeatures = maxFeatures ?? (budget.store == nil ? configuration.maxFeaturesInMemory : nil)
        }
        let computation = try workerComputation(filter: filter, spatial: spatial)
        let options = try ItemsOptions.plan(
            query, service: service, collection: collection, queryables: queryables, properties: computation?.properties,
            needsGeometry: computation?.needsGeometry ?? true, sortable: spatial.boxes.count <= 1)
        let aggregator = computation.map {
            SelectionAggregator(
                $0.computation, fields: $0.fields, temporalFields: filter.temporalFields, budget: budget, layer: layer,
                serverSorts: options.serverSorts)
        }
        if aggregator != nil { maxFeatures = nil }
        var pageLimit = service.limitMaximum ?? configuration.defaultPageLimit
        if let wanted = query.maxFeatures, serverComplete, query.result != .count, aggregator == nil {
            // One more than wanted tells whether there are more.
            pageLimit = min(pageLimit, max(1, wanted + 1))
        }
        let plan = Plan(filter: filter, spatial: spatial, serverComplete: serverComplete, options: options)
        let objectIDs = query.objectIds.map(Set.init)
        func newCollector() -> CheckedItemCollector {
            CheckedItemCollector(
                filter: filter, spatial: spatial, keep: keep, maxFeatures: maxFeatures, budget: budget,
                serverFiltered: filter.server != .none && filter.serverEvaluatesAll, objectIDs: objectIDs,
                aggregator: aggregator)
        }
        let stored = query.result == .features || query.result == .ids
        let stream = StoredLayerStream(
            store: stored ? budget.store : nil, layer: ProgressLayer(url: collection.url, collection: collection.id),
            kind: query.result == .ids ? .ids : .features, maxInlineItems: configuration.maxFeaturesInMemory)
        return try await withStoredLayer(stream) { stream in
            // A selection the worker orders is complete only at the end: it is stored whole then (`storedWhole`).
            if aggregator == nil { try await stream.begin() }
            func started() -> CheckedItemCollector {
                var collector = newCollector()
                if stream.isStreaming { collector.dropHeld() }
                return collector
            }
            var collector = started()
            var pass: Pass
            do {
                pass = try await passes(plan, pageLimit: pageLimit, into: &collector, stream: &stream, restart: newCollector)
            } catch let error as FeatureServiceError where isOutOfTemporalRange(error) {
                // pygeoapi's answer to a window outside the collection's temporal extent: nothing is in it.
                collector = started()
                pass = Pass(matchedByServer: [0], countedByServer: true)
            }
            return try await answered(collector: &collector, pass: pass, plan: plan, keep: keep, stream: &stream)
        }
    }

    /// The layer's answer once its pages are read: the checks that fail it, then the inline, stored or
    /// aggregated selection.
    private func answered(
        collector: inout CheckedItemCollector, pass: Pass, plan: Plan, keep: CheckedItemCollector.Keep,
        stream: inout StoredLayerStream
    ) async throws -> ServiceLayerResult {
        let filter = plan.filter
        if let failure = collector.failure { throw failure }
        if !collector.isCut, !pass.countedByServer, collector.arrived > 0, !collector.fieldsNotSeen.isEmpty {
            // The whole collection was read and no feature has the field: a misspelt name (ArcGIS answers 400),
            // not an empty selection.
            let names = filter.undeclaredFields.filter { collector.fieldsNotSeen.contains($0.lowercased()) }
            throw OGCFailure.invalidQuery(
                layer, "the where clause names \(names.map { "\"\($0)\"" }.joined(separator: ", ")), which none of the "
                    + "\(collector.arrived) features read has and the collection's queryables do not declare; check the name")
        }
        if case .features = keep, query.maxFeatures == nil, !stream.hasStore,
            collector.cutByMaxFeatures || collector.matched > configuration.maxFeaturesInMemory
        {
            throw FeatureServiceError(
                .limitExceeded,
                "\(layer) matches more than \(configuration.maxFeaturesInMemory) features, the most held without a "
                    + "`maxFeatures`; set one, or narrow the query",
                layer: layer)
        }
        var inline = answer(
            collector, matchedByServer: pass.matchedByServer, countedByServer: pass.countedByServer, serverComplete: plan.serverComplete)
        if let stored = try await stream.finish() {
            inline.selection = .stored(stored)
            return inline
        }
        let result = try aggregated(inline, collector: &collector, keep: keep, serverSorts: plan.options.serverSorts)
        return try await storedWhole(result, stream: &stream)
    }

    /// The sequential pass (a count's cheap probe first), then the tiles when the first page called for them.
    private func passes(
        _ plan: Plan, pageLimit: Int, into collector: inout CheckedItemCollector, stream: inout StoredLayerStream,
        restart: () -> CheckedItemCollector
    ) async throws -> Pass {
        var pass: Pass
        if query.result == .count, plan.serverComplete, pageLimit > Self.countProbeLimit {
            // A count reads `numberMatched` off a small first page (whose features are still checked); only
            // a server that gives none, or whose page fails the check, is read whole.
            pass = try await sequential(plan, pageLimit: Self.countProbeLimit, probing: true, into: &collector, stream: &stream)
            if pass.probeInconclusive {
                collector = restart()
                pass = try await sequential(plan, pageLimit: pageLimit, probing: false, into: &collector, stream: &stream)
            }
        } else {
            pass = try await sequential(plan, pageLimit: pageLimit, probing: false, into: &collector, stream: &stream)
        }
        if let tiling = pass.tiling {
            try await runTiles(
                tiling, filter: plan.filter, extra: plan.options.parameters, pageLimit: pageLimit, into: &collector, stream: &stream)
            collector.putInSequenceOrder()
        }
        return pass
    }

    /// The features a count's first page asks for: enough to check the server's filter on, few enough to be cheap.
    static let countProbeLimit = 100

    /// What a query sends, decided once.
    private struct Plan {
        let filter: FilterPlan
        let spatial: SpatialPlan
        let serverComplete: Bool
        let options: ItemsOptions
    }

    /// What one pass over the `next` sequences found.
    struct Pass {
        /// Each sequence's first `numberMatched`.
        var matchedByServer: [Int?] = []
        /// A count answered by `numberMatched` after the first page checked out.
        var countedByServer = false
        /// The region to fetch as tiles, when the first page showed the collection is worth it.
        var tiling: Tiling?
        /// A count's small first page could not answer it (no `numberMatched`, or a feature failed the check).
        var probeInconclusive = false
    }

    /// Pages each bbox's sequence (one, or none for no spatial filter: one sequence) into `collector`, stopping
    /// early for a count the server answers, or to tile.
    private func sequential(
        _ plan: Plan, pageLimit: Int, probing: Bool, into collector: inout CheckedItemCollector,
        stream: inout StoredLayerStream
    ) async throws -> Pass {
        let spatial = plan.spatial
        let pager = ItemPager(
            transport: transport, layer: layer, origin: service.origin,
            maxConsecutiveEmptyPages: configuration.maxConsecutiveEmptyPages, progress: progress,
            reportsTotal: spatial.isEmpty || spatial.boxes.count <= 1)
        var pass = Pass()
        let boxes: [[Double]?] = spatial.isEmpty ? [nil] : spatial.boxes
        for box in boxes {
            var first = true
            // Pages that bring only features already held: a cycle through URLs that differ each time.
            var repeatsInARow = 0
            let firstURL = ItemsURL.build(
                collection.itemsURL, limit: pageLimit, box: box, bboxCRS: spatial.bboxCRS, filter: plan.filter.server,
                extra: plan.options.parameters)
            let fallback = pageLimit > configuration.fallbackPageLimit
                ? ItemsURL.build(
                    collection.itemsURL, limit: configuration.fallbackPageLimit, box: box, bboxCRS: spatial.bboxCRS,
                    filter: plan.filter.server, extra: plan.options.parameters) : nil
            try await pager.run(first: firstURL, fallback: fallback) { page in
                let isFirst = first
                first = false
                if isFirst { pass.matchedByServer.append(page.numberMatched) }
                let arrivedBefore = collector.arrived
                let heldBefore = collector.heldCount
                let more = collector.add(page.features, box: spatial.comparableBox(box))
                try await absorb(&collector, from: heldBefore, stream: &stream)
                guard more else { return .stop }
                repeatsInARow = !page.features.isEmpty && collector.arrived == arrivedBefore ? repeatsInARow + 1 : 0
                if repeatsInARow >= configuration.maxConsecutiveEmptyPages {
                    throw FeatureServiceError(
                        .pagingCycle,
                        "\(layer): \(repeatsInARow) pages in a row held only features already read; the `next` links go round",
                        layer: layer)
                }
                guard isFirst, page.next != nil else { return .more }
                if query.result == .count {
                    if page.numberMatched != nil, plan.serverComplete, collector.rejectedServerMatches == 0 {
                        pass.countedByServer = true
                        return .stop
                    }
                    if probing {
                        pass.probeInconclusive = true
                        return .stop
                    }
                    return .more
                }
                if boxes.count == 1, spatial.bboxCRS == nil, !plan.options.serverSorts, let matched = page.numberMatched,
                    let found = tiling(box, firstPage: page, matched: matched, collector: collector)
                {
                    pass.tiling = found
                    return .stop
                }
                return .more
            }
            if collector.isCut || pass.probeInconclusive { break }
        }
        return pass
    }
}
