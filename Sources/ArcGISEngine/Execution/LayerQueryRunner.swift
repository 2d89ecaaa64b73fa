import FeatureGeometry

/// Runs one query against one layer and returns a complete result: the count, the selection, or every
/// feature, with the evidence of completeness.
///
/// Features of a paginated layer are fetched by offset in parallel pages planned from the count
/// (``PagePlanner``); a layer without pagination gives its ids first and its features by `objectIds`
/// chunks. Whatever paging missed is fetched again by id before the result is returned.
struct LayerQueryRunner: Sendable {
    let transport: ArcGISTransport
    let layer: LayerMetadata
    let origin: String
    let query: FeatureQuery
    let configuration: ArcGISEngineConfiguration
    let counter = RequestCounter()

    private var endpoint: String { layer.url + "/query" }

    func run() async throws -> LayerQueryResult {
        let base = try QueryParameters.base(query, layer: layer)
        switch query.result {
        case .count:
            let count = try await fetchCount(base)
            return result(count: count, ids: nil, features: nil, collector: nil,
                          completeness: Completeness(expected: count, received: count))
        case .ids:
            return try await runIDs(base)
        case .features:
            return layer.supportsPagination ? try await runPaged(base) : try await runByIDs(base)
        }
    }

    // MARK: Selection

    private func runIDs(_ base: QueryParameters) async throws -> LayerQueryResult {
        async let expected = optionalCount(base)
        let (ids, duplicates) = try await fetchIDs(base).objectIds.sortedUnique()
        let count = try await expected
        let (kept, truncated) = cut(ids)
        let completeness = Completeness(
            expected: count, received: ids.count, duplicates: duplicates, truncatedByLimit: truncated)
        return result(count: count ?? ids.count, ids: kept, features: nil, collector: nil, completeness: completeness)
    }

    // MARK: Features

    private func runPaged(_ base: QueryParameters) async throws -> LayerQueryResult {
        let count = try await fetchCount(base)
        let wanted = try wantedFeatures(of: count)
        let output = base.withFeatureOutput(query, layer: layer)
        var planner = PagePlanner(
            wanted: wanted, pageSize: layer.maxRecordCount, extendPastWanted: query.maxFeatures == nil)
        var collector = FeatureCollector(limit: max(wanted, configuration.maxFeaturesInMemory), layer: layer.url)
        let fetch = pageFetcher(output)
        try await BoundedWork.run(limit: configuration.pageConcurrency, next: { planner.next() }, execute: fetch) {
            range, page in
            planner.record(range, received: page.features.count, exceededTransferLimit: page.exceededTransferLimit)
            try collector.add(page)
        }
        var repaired = 0
        if collector.count < wanted {
            repaired = try await repair(base, output: output, wanted: wanted, collector: &collector)
        }
        let completeness = Completeness(
            expected: count, received: collector.count, duplicates: collector.duplicates, repaired: repaired,
            truncatedByLimit: wanted < count)
        return result(count: count, ids: nil, features: collector.sortedFeatures(), collector: collector,
                      completeness: completeness)
    }

    private func runByIDs(_ base: QueryParameters) async throws -> LayerQueryResult {
        let (ids, duplicates) = try await fetchIDs(base).objectIds.sortedUnique()
        let wanted = try wantedFeatures(of: ids.count)
        var collector = FeatureCollector(limit: max(wanted, configuration.maxFeaturesInMemory), layer: layer.url)
        try await fetchByIDs(Array(ids.prefix(wanted)), output: base.withFeatureOutput(query, layer: layer), into: &collector)
        let completeness = Completeness(
            expected: ids.count, received: collector.count, duplicates: duplicates + collector.duplicates,
            truncatedByLimit: wanted < ids.count)
        return result(count: ids.count, ids: nil, features: collector.sortedFeatures(), collector: collector,
                      completeness: completeness)
    }

    /// Fetches by id what paging missed; returns how many features it recovered.
    private func repair(
        _ base: QueryParameters, output: QueryParameters, wanted: Int, collector: inout FeatureCollector
    ) async throws -> Int {
        let ids = try await fetchIDs(base).objectIds.sortedUnique().ids.prefix(wanted)
        let missing = ids.filter { !collector.contains($0) }
        guard !missing.isEmpty else { return 0 }
        let before = collector.count
        try await fetchByIDs(missing, output: output, into: &collector)
        transport.logger.notice(
            "paging missed features; fetched them by object id",
            metadata: ["layer": "\(layer.url)", "missing": "\(missing.count)", "recovered": "\(collector.count - before)"])
        return collector.count - before
    }

    /// Features by `objectIds` chunks, in parallel; chunks the service trimmed are asked again (three rounds).
    private func fetchByIDs(_ ids: [Int64], output: QueryParameters, into collector: inout FeatureCollector) async throws {
        let chunkSize = max(1, min(configuration.objectIdChunkSize, layer.maxRecordCount))
        var missing = ids
        for _ in 0..<3 where !missing.isEmpty {
            var chunks = stride(from: 0, to: missing.count, by: chunkSize).map {
                Array(missing[$0..<min($0 + chunkSize, missing.count)])
            }.reversed().map { $0 }
            let (query, layer, transport, endpoint, origin, counter) = (query, layer, transport, endpoint, origin, counter)
            try await BoundedWork.run(limit: configuration.pageConcurrency, next: { chunks.popLast() }) { chunk in
                let parameters = QueryParameters.objectIds(chunk[...], query: query, layer: layer)
                return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                    body throws(ArcGISError) in
                    try ArcGISResponse.featurePage(body, layer: layer.url, objectIdField: layer.objectIdField)
                }
            } completed: { chunk, page in
                try collector.add(page, only: Set(chunk))
            }
            let before = missing.count
            missing = missing.filter { !collector.contains($0) }
            if missing.count == before { break }
        }
    }

    // MARK: Requests

    private func pageFetcher(_ output: QueryParameters) -> @Sendable (PagePlanner.Range) async throws -> FeaturePage {
        let (layer, transport, endpoint, origin, counter) = (layer, transport, endpoint, origin, counter)
        return { range in
            let parameters = QueryParameters.page(output, objectIdField: layer.objectIdField, offset: range.offset, count: range.count)
            return try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                body throws(ArcGISError) in
                try ArcGISResponse.featurePage(body, layer: layer.url, objectIdField: layer.objectIdField)
            }
        }
    }

    private func fetchCount(_ base: QueryParameters) async throws -> Int {
        try await transport.fetch(endpoint, origin: origin, parameters: .countOnly(base), layer: layer.url, counter: counter) {
            body throws(ArcGISError) in try ArcGISResponse.count(body, layer: layer.url)
        }
    }

    private func optionalCount(_ base: QueryParameters) async throws -> Int? {
        configuration.verifyCompleteness ? try await fetchCount(base) : nil
    }

    private func fetchIDs(_ base: QueryParameters) async throws -> ObjectIDPage {
        try await transport.fetch(endpoint, origin: origin, parameters: .idsOnly(base), layer: layer.url, counter: counter) {
            body throws(ArcGISError) in try ArcGISResponse.objectIDs(body, layer: layer.url)
        }
    }

    // MARK: Limits and results

    private func cut(_ ids: [Int64]) -> ([Int64], Bool) {
        guard let max = query.maxFeatures, ids.count > max else { return (ids, false) }
        return (Array(ids.prefix(max)), true)
    }

    private func wantedFeatures(of count: Int) throws(ArcGISError) -> Int {
        if let max = query.maxFeatures { return min(count, max) }
        guard count <= configuration.maxFeaturesInMemory else {
            throw ArcGISError(
                .limitExceeded,
                "\(layer.url) matches \(count) features, more than the \(configuration.maxFeaturesInMemory) one "
                    + "result may hold; ask for ids or a count, or set maxFeatures", layer: layer.url)
        }
        return count
    }

    private func result(
        count: Int, ids: [Int64]?, features: [Feature]?, collector: FeatureCollector?, completeness: Completeness
    ) -> LayerQueryResult {
        LayerQueryResult(
            url: layer.url, layerId: layer.id, name: layer.name, objectIdField: layer.objectIdField, count: count,
            objectIds: ids ?? features?.map(\.objectId), features: features, fieldOrder: collector?.fieldOrder ?? [],
            spatialReference: collector?.spatialReference, completeness: completeness,
            requests: counter.requestCount, retries: counter.retryCount)
    }
}
