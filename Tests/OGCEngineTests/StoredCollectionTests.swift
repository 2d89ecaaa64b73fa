import CurlHTTP
import EngineTestSupport
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// Issue 31: with a result store on the request's budget, a collection's selection is streamed to it after the
/// per-feature re-check and the id deduplication (a recording store here; the S3 side has its own suites).
@Suite("Stored results: the OGC engine streams a collection's selection to the result store")
struct StoredCollectionTests {
    static func run(
        _ engine: OGCEngine, _ landing: String, _ query: ServiceQuery, collection: String = "USA_States",
        store: RecordingResultStore?
    ) async -> ServiceLayerOutcome {
        let budget = ResultBudget(limit: .max, store: store)
        return await engine.query([ServiceTarget(kind: .ogc, url: landing, layers: [collection])], query, budget: budget)[0][0]
    }

    /// The stored items' ids, each item checked to be a GeoJSON Feature (features) or read as the id (ids).
    static func storedIDs(_ writer: RecordingWriter) async throws -> [FeatureID?] {
        try await writer.items.map { item in
            let value = try ParsedJSON(reading: item)
            var id = value
            if writer.kind == .features {
                #expect(value["type"] == .string("Feature"))
                id = value["id"] ?? .null
            }
            switch id {
            case .number(let number): return .integer(Int64(number))
            case .string(let text): return .string(text)
            default: return nil
            }
        }
    }

    static func ids(_ result: ServiceLayerResult?) -> [FeatureID?] { result?.featureIds ?? [] }

    @Test func alwaysStoresTheSameFeaturesAsInlineEachOnceFilteredWhereverTheServerFails() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let clause = try WhereClause("STATE_ABBR IN ('CA', 'NV') OR STATE_NAME LIKE 'New%'")
            let cases: [([String], ServiceQuery)] = [
                ([], ServiceQuery(result: .features)),
                (["duplicates", "max-limit-7"], ServiceQuery(result: .features)),
                (["filter-ignored"], ServiceQuery(whereClause: clause, result: .features)),
                (["no-filter"], ServiceQuery(whereClause: clause, result: .features)),
            ]
            let honest = try #require(await Self.run(engine, server.ogcURL(quirks: []), cases[2].1, store: nil).success)
            #expect(honest.featureIds.count == 6)
            for (quirks, query) in cases {
                let landing = server.ogcURL(quirks: quirks)
                let inline = try #require(await Self.run(engine, landing, query, store: nil).success, "\(quirks)")
                let store = RecordingResultStore(delivery: .always)
                let stored = try #require(await Self.run(engine, landing, query, store: store).success, "\(quirks)")
                guard case .stored(let location) = stored.selection else {
                    Issue.record("\(quirks): not stored: \(stored.selection)")
                    continue
                }
                let writer = try #require(store.writers.first)
                let ids = try await Self.storedIDs(writer)
                // A collection of more than a few pages is fetched as tiles: stored in arrival order, inline in tile order.
                #expect(Set(ids) == Set(inline.featureIds) && ids.count == inline.featureIds.count, "\(quirks)")
                #expect(Set(ids).count == ids.count, "\(quirks)")
                #expect(location.count == ids.count)
                #expect(stored.count == inline.count && stored.isComplete == inline.isComplete, "\(quirks)")
                #expect(stored.filteredBy == inline.filteredBy, "\(quirks)")
                #expect(await writer.finishes == 1)
                #expect(await writer.aborts == 0)
                if query.whereClause != nil { #expect(Set(ids) == Set(honest.featureIds), "\(quirks)") }
            }
        }
    }

    @Test func aboveTheThresholdASmallCollectionStaysInlineAndALargeTiledOneIsStored() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let store = RecordingResultStore(delivery: .above(thresholdBytes: 200_000))
            let small = try #require(await Self.run(engine, server.ogcURL(quirks: []), ServiceQuery(result: .features), store: store).success)
            #expect(small.featureIds.count == 49)
            #expect(store.writers.isEmpty)
            // Pages of 100: the collection is fetched as tiles.
            let landing = server.ogcURL(quirks: ["max-limit-100"])
            let query = ServiceQuery(returnGeometry: true, result: .features)
            let inline = try #require(await Self.run(engine, landing, query, collection: "TransportationGroundCrv", store: nil).success)
            let large = try #require(await Self.run(engine, landing, query, collection: "TransportationGroundCrv", store: store).success)
            guard case .stored(let location) = large.selection else { Issue.record("not stored: \(large.selection)"); return }
            let ids = try await Self.storedIDs(try #require(store.writers.first))
            #expect(ids.count == 3_712 && location.count == 3_712)
            #expect(Set(ids) == Set(inline.featureIds))
            #expect(Set(ids).count == ids.count)
            #expect(large.isComplete && large.count == 3_712)
        }
    }

    @Test func aFailingAppendFailsTheCollectionWithTheWritersCodeAndAborts() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            // Pages of 100 (then tiles): the third append is well inside the collection.
            let store = RecordingResultStore(delivery: .always, failOnAppend: 3, failure: .storeUnavailable)
            let outcome = await Self.run(
                engine, server.ogcURL(quirks: ["max-limit-100"]), ServiceQuery(result: .features), collection: "TransportationGroundCrv",
                store: store)
            #expect(outcome.failure?.code == .storeUnavailable)
            let writer = try #require(store.writers.first)
            #expect(await writer.aborts >= 1)
            #expect(await writer.finishes == 0)
        }
    }

    @Test func cancellingMidCollectionAborts() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let store = RecordingResultStore(delivery: .always, holdAppends: true)
            let landing = server.ogcURL(quirks: ["max-limit-100"])
            let task = Task {
                await Self.run(engine, landing, ServiceQuery(result: .features), collection: "TransportationGroundCrv", store: store)
            }
            try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
            task.cancel()
            store.gate.release()
            #expect(await task.value.failure != nil)
            let writer = try #require(store.writers.first)
            #expect(await writer.aborts >= 1)
            #expect(await writer.finishes == 0)
        }
    }

    @Test func aCollectionAboveTheMemoryLimitIsStoredInsteadOfRefused() async throws {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 3),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        var configuration = OGCTestServer.fastConfiguration
        configuration.maxFeaturesInMemory = 1_000
        let engine = OGCEngine(httpClient: client, configuration: configuration, logger: OGCTestServer.logger)
        let landing = server.ogcURL(quirks: [])
        let refused = await Self.run(engine, landing, ServiceQuery(result: .features), collection: "TransportationGroundCrv", store: nil)
        #expect(refused.failure?.code == .limitExceeded)
        let store = RecordingResultStore(delivery: .above(thresholdBytes: 1 << 40))
        let stored = await Self.run(engine, landing, ServiceQuery(result: .features), collection: "TransportationGroundCrv", store: store)
        await client.shutdown()
        await server.shutdown()
        let result = try #require(stored.success, "\(String(describing: stored.failure))")
        guard case .stored(let location) = result.selection else { Issue.record("not stored: \(result.selection)"); return }
        #expect(location.count == 3_712)
        let ids = try await Self.storedIDs(try #require(store.writers.first))
        #expect(Set(ids).count == 3_712)
        #expect(result.isComplete)
    }

    @Test func idsAreStoredAsJSONValues() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: ["duplicates"])
            let inline = try #require(await Self.run(engine, landing, ServiceQuery(result: .ids), store: nil).success)
            let store = RecordingResultStore(delivery: .always)
            let stored = try #require(await Self.run(engine, landing, ServiceQuery(result: .ids), store: store).success)
            guard case .stored(let location) = stored.selection else { Issue.record("not stored: \(stored.selection)"); return }
            #expect(location.kind == .ids)
            let writer = try #require(store.writers.first)
            #expect(writer.kind == .ids)
            let ids = try await Self.storedIDs(writer)
            #expect(Set(ids) == Set(inline.featureIds) && ids.count == inline.featureIds.count)
            #expect(location.count == 49)
        }
    }
}

extension StoredCollectionTests {
    @Test func anOrderedSelectionIsStoredWholeInItsOrder() async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            for kind in [ServiceQuery.ResultKind.features, .ids] {
                let query = ServiceQuery(result: kind, orderBy: [OrderTerm(field: "STATE_NAME", descending: true)])
                let inline = try #require(await Self.run(engine, landing, query, store: nil).success)
                let store = RecordingResultStore(delivery: .always)
                let stored = try #require(await Self.run(engine, landing, query, store: store).success, "\(kind)")
                guard case .stored(let location) = stored.selection else { Issue.record("\(kind): not stored"); continue }
                let writer = try #require(store.writers.first)
                #expect(try await Self.storedIDs(writer) == inline.featureIds, "\(kind)")
                #expect(location.count == 49)
                #expect(stored.orderedBy == inline.orderedBy)
                #expect(store.writers.count == 1)
            }
        }
    }

    @Test func aSuspendedStoreStopsTheNextLinksBeingFollowed() async throws {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 3),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        var configuration = OGCTestServer.fastConfiguration
        configuration.tileWhenPagesExceed = nil
        let engine = OGCEngine(httpClient: client, configuration: configuration, logger: OGCTestServer.logger)
        let store = RecordingResultStore(delivery: .always, holdAppends: true)
        let landing = server.ogcURL(quirks: ["max-limit-100"])
        let task = Task { await Self.run(engine, landing, ServiceQuery(result: .features), collection: "TransportationGroundCrv", store: store) }
        try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
        try await Task.sleep(for: .milliseconds(300))
        // The page being appended and the next one, fetched meanwhile: no further `next` while the store is behind.
        let held = server.statistics.ogcItemRequests("TransportationGroundCrv")
        store.gate.release()
        let outcome = await task.value
        let total = server.statistics.ogcItemRequests("TransportationGroundCrv")
        await client.shutdown()
        await server.shutdown()
        #expect(held <= 2)
        #expect(total >= 38)
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        guard case .stored(let location) = result.selection else { Issue.record("not stored"); return }
        #expect(location.count == 3_712)
    }

    @Test func aSuspendedStoreHoldsTilesBackToAPageEach() async throws {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 3),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger)
        let landing = server.ogcURL(quirks: ["max-limit-100"])
        let collection = "LA_County_Parcels"
        let inline = await Self.run(engine, landing, ServiceQuery(result: .ids), collection: collection, store: nil)
        let before = server.statistics.ogcItemRequests(collection)
        // The untiled first page passes; the first tile page waits.
        let store = RecordingResultStore(delivery: .always, holdAppends: true, passingFirst: 1)
        let task = Task { await Self.run(engine, landing, ServiceQuery(result: .features), collection: collection, store: store) }
        try await EventWait.until("the engine reaching the held store") { store.gate.waiting > 0 }
        try await Task.sleep(for: .milliseconds(300))
        let held = server.statistics.ogcItemRequests(collection) - before
        store.gate.release()
        let outcome = await task.value
        let total = server.statistics.ogcItemRequests(collection) - before
        await client.shutdown()
        await server.shutdown()
        let truth = try #require(inline.success)
        // 16 tiles: each has read at most a page handed over, one waiting for a credit and the next one.
        #expect(held <= 2 + 16 * 3, "held \(held) total \(total)")
        #expect(total > held)
        let result = try #require(outcome.success, "\(String(describing: outcome.failure))")
        guard case .stored(let location) = result.selection else { Issue.record("not stored"); return }
        #expect(location.count == truth.featureIds.count)
        let ids = try await Self.storedIDs(try #require(store.writers.first))
        #expect(Set(ids) == Set(truth.featureIds))
        #expect(ids.count == truth.featureIds.count)
    }
}
