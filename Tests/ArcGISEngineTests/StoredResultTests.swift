import ArcGISEngine
import EngineTestSupport
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import SampleFeatureServer
import Synchronization
import Testing

/// Issue 31: with a result store on the request's budget, a layer's selection is streamed to it (a recording
/// store here; the S3 side has its own suites) and the result says where: the same features as inline, each once.
@Suite("Stored results: the ArcGIS engine streams a layer's selection to the result store")
struct StoredResultTests {
    static func outcome(
        _ engine: ArcGISEngine, _ url: String, _ query: ServiceQuery, store: RecordingResultStore?
    ) async -> ServiceLayerOutcome {
        let budget = ResultBudget(limit: .max, store: store)
        return await engine.query([ServiceTarget(kind: .arcgis, url: url)], query, budget: budget)[0][0]
    }

    /// The stored items as GeoJSON Features, and their ids in stored order.
    static func storedFeatureIDs(_ writer: RecordingWriter) async throws -> [Int] {
        var ids: [Int] = []
        for item in await writer.items {
            let feature = try ParsedJSON(reading: item)
            #expect(feature["type"] == .string("Feature"))
            guard case .number(let id)? = feature["id"] else {
                Issue.record("a stored feature without an id")
                continue
            }
            ids.append(Int(id))
        }
        return ids
    }

    static func storedIDs(_ writer: RecordingWriter) async throws -> [Int] {
        try await writer.items.map {
            guard case .number(let id) = try ParsedJSON(reading: $0) else { throw FeatureServiceError(.malformedResponse, "not a number", layer: "") }
            return Int(id)
        }
    }

    static let extent = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .features)

    @Test func alwaysStoresThePagedLayersFeaturesEachOnce() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let inline = try #require(await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: nil).success)
            let store = RecordingResultStore(delivery: .always)
            let stored = try #require(await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: store).success)
            let writer = try #require(store.writers.first)
            guard case .stored(let location) = stored.selection else { Issue.record("not stored: \(stored.selection)"); return }
            let ids = try await Self.storedFeatureIDs(writer)
            #expect(Set(ids).count == ids.count)
            #expect(ids.sorted() == ArcGISTestSupport.ids(inline))
            #expect(location.count == ids.count)
            #expect(location.kind == .features)
            #expect(stored.count == inline.count)
            #expect(stored.isComplete == inline.isComplete)
            #expect(stored.isComplete)
            #expect(await writer.finishes == 1)
            #expect(await writer.aborts == 0)
            #expect(writer.layer.url == server.layerURL(.parcels))
        }
    }

    @Test func alwaysStoresTheLayerWithoutPaginationByIDs() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(returnGeometry: true, result: .features)
            let inline = try #require(await Self.outcome(engine, server.layerURL(.legacyParcels), query, store: nil).success)
            let store = RecordingResultStore(delivery: .always)
            let stored = try #require(await Self.outcome(engine, server.layerURL(.legacyParcels), query, store: store).success)
            let ids = try await Self.storedFeatureIDs(try #require(store.writers.first))
            #expect(Set(ids).count == ids.count)
            #expect(ids.sorted() == ArcGISTestSupport.ids(inline))
            #expect(ids.count > 1_000)
            #expect(stored.isComplete)
        }
    }

    @Test func orderedFeaturesAreStoredInTheirOrder() async throws {
        let query = ServiceQuery(
            geometry: ArcGISTestSupport.seedExtent, maxFeatures: 2_300, result: .features,
            orderBy: [OrderTerm(field: "Roll_LandValue", descending: true)])
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.objectIdChunkSize = 200
        try await ArcGISTestSupport.withEngine(configuration: configuration) { server, engine in
            let inline = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: nil).success)
            let store = RecordingResultStore(delivery: .always)
            let stored = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: store).success)
            let ids = try await Self.storedFeatureIDs(try #require(store.writers.first))
            #expect(ids.count == 2_300)
            #expect(ids == ArcGISTestSupport.ids(inline))
            #expect(stored.orderedBy == inline.orderedBy)
            #expect(stored.count == inline.count)
            #expect(stored.incompleteReason == inline.incompleteReason)
            // Below the threshold the ordered path answers inline, in the same order.
            let small = RecordingResultStore(delivery: .above(thresholdBytes: 1 << 40))
            let kept = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: small).success)
            #expect(ArcGISTestSupport.ids(kept) == ArcGISTestSupport.ids(inline))
            #expect(small.writers.isEmpty)
        }
    }

    @Test func aboveTheThresholdASmallLayerStaysInlineAndALargeOneIsStored() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let store = RecordingResultStore(delivery: .above(thresholdBytes: 50_000))
            var few = Self.extent
            few.maxFeatures = 5
            let small = try #require(await Self.outcome(engine, server.layerURL(.parcels), few, store: store).success)
            #expect(small.selection.geoJSON?.count == 5)
            #expect(store.writers.isEmpty)
            let inline = try #require(await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: nil).success)
            let large = try #require(await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: store).success)
            guard case .stored = large.selection else { Issue.record("not stored: \(large.selection)"); return }
            let ids = try await Self.storedFeatureIDs(try #require(store.writers.first))
            #expect(ids.sorted() == ArcGISTestSupport.ids(inline))
            #expect(large.isComplete)
        }
    }

    @Test func aFailingAppendFailsTheLayerWithTheWritersCodeAndAborts() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let store = RecordingResultStore(delivery: .always, failOnAppend: 2, failure: .storeDenied)
            let outcome = await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: store)
            #expect(outcome.failure?.code == .storeDenied)
            let writer = try #require(store.writers.first)
            #expect(await writer.aborts >= 1)
            #expect(await writer.finishes == 0)
        }
    }

    @Test func cancellingMidLayerAborts() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let store = RecordingResultStore(delivery: .always, holdAppends: true)
            let url = server.layerURL(.parcels)
            let task = Task { await Self.outcome(engine, url, Self.extent, store: store) }
            try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
            task.cancel()
            store.gate.release()
            let outcome = await task.value
            #expect(outcome.failure != nil)
            let writer = try #require(store.writers.first)
            #expect(await writer.aborts >= 1)
            #expect(await writer.finishes == 0)
        }
    }

    @Test func aLayerAboveTheMemoryLimitIsStoredInsteadOfRefused() async throws {
        var configuration = ArcGISEngineConfiguration(retry: ArcGISTestSupport.fastRetries)
        configuration.maxFeaturesInMemory = 1_000
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        #expect(truth.count > 1_000)
        try await ArcGISTestSupport.withEngine(configuration: configuration) { server, engine in
            let refused = await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: nil)
            #expect(refused.failure?.code == .limitExceeded)
            let store = RecordingResultStore(delivery: .above(thresholdBytes: 1 << 40))
            let stored = try #require(await Self.outcome(engine, server.layerURL(.parcels), Self.extent, store: store).success)
            guard case .stored(let location) = stored.selection else { Issue.record("not stored: \(stored.selection)"); return }
            #expect(location.count == truth.count)
            #expect(try await Self.storedFeatureIDs(try #require(store.writers.first)).sorted() == truth)
            #expect(stored.isComplete)
        }
    }

    @Test func idsAreStoredAsJSONNumbers() async throws {
        let truth = try ArcGISTestSupport.dataset().groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = ServiceQuery(geometry: ArcGISTestSupport.seedExtent, result: .ids)
            let store = RecordingResultStore(delivery: .always)
            let stored = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: store).success)
            guard case .stored(let location) = stored.selection else { Issue.record("not stored: \(stored.selection)"); return }
            #expect(location.kind == .ids)
            let writer = try #require(store.writers.first)
            #expect(writer.kind == .ids)
            #expect(try await Self.storedIDs(writer) == truth)
            // Small ids stay inline below the threshold.
            let above = RecordingResultStore(delivery: .above(thresholdBytes: 1 << 30))
            let inline = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: above).success)
            #expect(ArcGISTestSupport.ids(inline) == truth)
            #expect(above.writers.isEmpty)
        }
    }

    @Test func aSuspendedStoreStopsTheEngineFetchingPages() async throws {
        let layer = ConcurrencyLimitTests.CountingLayer(count: 6_000, delay: .milliseconds(1))
        let concurrency = 2
        try await ConcurrencyLimitTests().withLayer(layer, configuration: ArcGISEngineConfiguration(pageConcurrency: concurrency)) { url, engine in
            let store = RecordingResultStore(delivery: .always, holdAppends: true)
            let task = Task { await Self.outcome(engine, url, ServiceQuery(result: .features), store: store) }
            try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
            try await Task.sleep(for: .milliseconds(300))
            // The count, the page being appended and the pages in flight: nothing more while the store is behind.
            let held = layer.gauge.withLock { $0.queries }
            #expect(held <= 1 + concurrency + 1)
            store.gate.release()
            let result = try #require(await task.value.success)
            guard case .stored(let location) = result.selection else { Issue.record("not stored"); return }
            #expect(location.count == 6_000)
            #expect(layer.gauge.withLock { $0.queries } == 13)
        }
    }

    @Test func aSuspendedStoreStopsOrderedChunks() async throws {
        let query = ServiceQuery(
            geometry: ArcGISTestSupport.seedExtent, maxFeatures: 2_300, result: .features,
            orderBy: [OrderTerm(field: "Roll_LandValue", descending: true)])
        var configuration = ArcGISEngineConfiguration(pageConcurrency: 2, retry: ArcGISTestSupport.fastRetries)
        configuration.objectIdChunkSize = 100
        try await ArcGISTestSupport.withEngine(configuration: configuration) { server, engine in
            let inline = try #require(await Self.outcome(engine, server.layerURL(.parcels), query, store: nil).success)
            let store = RecordingResultStore(delivery: .always, holdAppends: true)
            let url = server.layerURL(.parcels)
            let task = Task { await Self.outcome(engine, url, query, store: store) }
            try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
            let before = server.statistics.queries(.parcels)
            try await Task.sleep(for: .milliseconds(300))
            // At most the chunks in flight when the append began finish: none starts while the store is behind.
            #expect(server.statistics.queries(.parcels) - before <= 2)
            store.gate.release()
            let stored = try #require(await task.value.success)
            let ids = try await Self.storedFeatureIDs(try #require(store.writers.first))
            #expect(ids == ArcGISTestSupport.ids(inline))
            #expect(stored.isComplete == inline.isComplete)
        }
    }

}
