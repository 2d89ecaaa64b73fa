import EngineExecution
import FeatureService

/// A layer's selection through the request's result store (issue 31), when its ``ResultBudget`` has one: the
/// same pages, deduplication and completeness as an inline result, but kept features go to a
/// ``StoredLayerWriter`` (see ``StoredLayerStream``) and the selection is ``LayerSelection/stored(_:)``.
extension LayerQueryRunner {
    /// The layer's stream: inline (and a no-op) without a store.
    func storedStream(kind: StoredSelection.Kind) -> StoredLayerStream {
        StoredLayerStream(
            store: budget.store, layer: ProgressLayer(url: layer.url, layerId: layer.id), kind: kind,
            maxInlineItems: configuration.maxFeaturesInMemory)
    }

    /// `result: features` without an order: collected by pages or by ids, held or streamed.
    func runFeatures(_ base: QueryParameters) async throws -> ServiceLayerResult {
        try await withStoredLayer(storedStream(kind: .features)) { stream in
            try await stream.begin()
            // With a store, a layer past what memory may hold is streamed (the stream switches), not refused.
            let limit = stream.hasStore ? Int.max : max(query.maxFeatures ?? 0, configuration.maxFeaturesInMemory)
            var collector = GeoJSONPageCollector(limit: limit, layer: layer.url, retains: !stream.isStreaming)
            let (count, completeness) = try await collect(base, into: &collector, stream: &stream)
            if let stored = try await stream.finish() {
                return result(count: count, selection: .stored(stored), completeness: completeness)
            }
            return result(count: count, selection: .features(collector.finish()), completeness: completeness)
        }
    }

    /// Ids collected whole, stored when the store takes every layer or their JSON passes the threshold; nil
    /// when they stay inline (or there is no store).
    func storedIDs(_ ids: [Int64]) async throws -> StoredSelection? {
        guard budget.store != nil else { return nil }
        let bytes = ids.reduce(0) { $0 + StoredLayerStream.jsonBytes($1) }
        return try await withStoredLayer(storedStream(kind: .ids)) { stream in
            try await stream.storeAll(ids, bytes: bytes, encode: StoredLayerStream.json)
        }
    }

    /// `result: features` in the query's order with a store: the ordered ids' features by id chunks in
    /// parallel, written in the ids' order. A chunk is fetched whole (ids the service trimmed asked again within
    /// it), completed chunks wait in a ``PageReorderBuffer`` for the earlier ones, and no further chunk starts
    /// while the buffer holds more than the page concurrency: memory stays bounded while an early chunk is slow.
    func orderedThroughStore(_ ids: [Int64], count: Int, site: ComputationSite) async throws -> ServiceLayerResult {
        let wanted = try wantedFeatures(of: ids.count, stored: true)
        let selected = Array(ids.prefix(wanted))
        return try await withStoredLayer(storedStream(kind: .features)) { stream in
            try await stream.begin()
            var held = OrderedChunk(ids: [], json: [])
            var received = 0
            var cutByBudget = false
            do {
                received = try await streamOrdered(selected, held: &held, stream: &stream)
            } catch is BudgetSpent {
                cutByBudget = true
                received = held.ids.count
            }
            let completeness = Completeness(
                expected: selected.count, received: received, truncatedByLimit: selected.count < count,
                truncatedByBudget: cutByBudget)
            let selection: LayerSelection
            if let stored = try await stream.finish() {
                selection = .stored(stored)
            } else {
                selection = .features(GeoJSONFeatureList(objectIds: held.ids, json: held.json))
            }
            var answer = result(count: count, selection: selection, completeness: completeness)
            answer.orderedBy = site
            return answer
        }
    }

    /// Fetches `selected` by chunks and hands them, in order, to `stream` (holding them in `held` while the
    /// layer is inline); returns how many features were kept. Throws ``BudgetSpent`` when an inline chunk
    /// does not fit the result budget.
    private func streamOrdered(
        _ selected: [Int64], held: inout OrderedChunk, stream: inout StoredLayerStream
    ) async throws -> Int {
        let chunkSize = max(1, min(configuration.objectIdChunkSize, layer.maxRecordCount))
        let limit = configuration.pageConcurrency
        var chunks = stride(from: 0, to: selected.count, by: chunkSize).enumerated().reversed().map {
            (index: $0.offset, ids: Array(selected[$0.element..<min($0.element + chunkSize, selected.count)]))
        }
        var buffer = PageReorderBuffer<OrderedChunk>()
        var received = 0
        let budget = budget
        try await BoundedWork.run(
            limit: limit,
            next: { buffer.count > limit || (budget.isSpent && !stream.isStreaming) ? nil : chunks.popLast() }
        ) { chunk in
            try await self.fetchWhole(chunk.ids)
        } completed: { chunk, fetched in
            progress?.pageRead(features: fetched.ids.count, expected: selected.count)
            for ready in buffer.put(fetched, at: chunk.index) {
                if !stream.isStreaming {
                    guard budget.reserve(StoredLayerStream.bytes(of: ready.json) + ready.ids.count * 48) else { throw BudgetSpent() }
                    held.ids += ready.ids
                    held.json += ready.json
                }
                received += ready.ids.count
                try await stream.absorb(ready.json) {
                    let all = held.json
                    held = OrderedChunk(ids: [], json: [])
                    return all
                }
            }
        }
        return received
    }

    /// One chunk's features in the chunk's order: ids the service left out are asked again (three rounds in
    /// all), repeats are dropped; ids without a feature are left out.
    private func fetchWhole(_ ids: [Int64]) async throws -> OrderedChunk {
        let wanted = Set(ids)
        var found: [Int64: ArraySlice<UInt8>] = [:]
        var missing = ids
        for _ in 0..<3 where !missing.isEmpty {
            let parameters = QueryParameters.objectIds(missing[...], query: query, layer: layer)
            let layer = layer
            let page = try await transport.fetch(endpoint, origin: origin, parameters: parameters, layer: layer.url, counter: counter) {
                body throws(FeatureServiceError) in try GeoJSONPageCollector.decode(body, layer: layer)
            }
            for entry in page.entries where wanted.contains(entry.objectId) && found[entry.objectId] == nil {
                found[entry.objectId] = page.bytes[entry.start..<entry.end]
            }
            let before = missing.count
            missing = missing.filter { found[$0] == nil }
            if missing.count == before { break }
        }
        var chunk = OrderedChunk(ids: [], json: [])
        for id in ids {
            guard let json = found[id] else { continue }
            chunk.ids.append(id)
            chunk.json.append(json)
        }
        return chunk
    }
}

/// Features of ordered ids, in that order: one chunk's, or what an inline ordered layer holds.
struct OrderedChunk: Sendable {
    var ids: [Int64]
    var json: [ArraySlice<UInt8>]
}
