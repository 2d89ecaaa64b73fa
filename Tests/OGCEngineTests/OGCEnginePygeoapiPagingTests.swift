import FeatureGeometry
import FeatureService
import PygeoapiFixture
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// The OGC engine paging pygeoapi 0.21 for real: a second pygeoapi over the same files and tables whose
/// largest page is 7 (`limits.max_items`, which its OpenAPI document declares as `limit`'s maximum). The 49
/// states end on an exact last page (7 × 7), whose `next` pygeoapi still links, to an empty page; the cities
/// in a box are dozens of pages, which the engine fetches as spatial tiles at once.
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct OGCEnginePygeoapiPagingTests {
    static let pageSize = 7

    /// One small-page pygeoapi per test process beside the shared one (its files and database), never
    /// stopped: its watchdog stops it when the process ends.
    private static let smallPages = Task {
        let service = try await PygeoapiSampleService.shared()
        return try await PygeoapiServer.start(
            collections: [
                PygeoapiCollection(
                    id: service.cities.geoJSONCollection, title: "Cities (GeoJSON file)", source: .geoJSONFile(path: service.cities.geoJSONPath)),
                PygeoapiCollection(
                    id: service.cities.postGISCollection, title: "Cities (PostGIS)", source: .postGIS(service.database, table: "cities")),
                PygeoapiCollection(
                    id: service.states.geoJSONCollection, title: "States (GeoJSON file)", source: .geoJSONFile(path: service.states.geoJSONPath)),
                PygeoapiCollection(
                    id: service.states.postGISCollection, title: "States (PostGIS)", source: .postGIS(service.database, table: "states")),
            ],
            maxItems: pageSize)
    }

    static func truth(_ layer: SampleLayer, where clause: String? = nil, envelope: Envelope? = nil) throws -> [Int] {
        try SampleDataset.shared(parcelCount: 1, seed: 1).groundTruthObjectIDs(layer, where: clause, envelope: envelope)
    }

    /// States: seven full pages of 7, then the empty page the last one's `next` leads to, and no more
    /// (tiling off, so that the one `next` sequence is the whole story); tiled (49 features are 7 pages, over
    /// the engine's 4), the same states; and the same again when the engine asks more than pygeoapi serves.
    @Test(arguments: OGCEnginePygeoapiTests.providers)
    func anExactLastPageEndsOnTheEmptyPageItLinks(_ provider: OGCEnginePygeoapiTests.Provider) async throws {
        let server = try await Self.smallPages.value
        let service = try await PygeoapiSampleService.shared()
        let collection = provider.collection(service.states)
        let truth = try Self.truth(.states)
        #expect(truth.count == service.states.featureCount)
        #expect(truth.count % Self.pageSize == 0, "the last page must be exact")
        try await RealServerSupport.withEngine(configuration: OGCEngineConfiguration(tileWhenPagesExceed: nil)) { engine, log in
            let result = try await RealServerSupport.query(engine, landing: server.landingURL, collection: collection, ServiceQuery())
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.featureIds.count == truth.count, "no id twice")
            #expect(result.count == truth.count)
            #expect(result.isComplete)
            #expect(log.items.count == truth.count / Self.pageSize + 1, "the full pages and the empty one: \(log.items)")
            #expect(log.items.first?.contains("limit=\(Self.pageSize)") == true, "the declared maximum is asked")
        }
        try await RealServerSupport.withEngine { engine, log in
            let result = try await RealServerSupport.query(engine, landing: server.landingURL, collection: collection, ServiceQuery())
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.featureIds.count == truth.count, "no id twice")
            #expect(result.isComplete)
            #expect(log.items.contains { $0.contains("bbox=") }, "tiled")
        }

        // The OpenAPI document left unread (too large for the configured bound): the engine asks its default
        // page, pygeoapi clamps it to 7 and its `next` links keep the asked limit; the paging is the same.
        let blind = OGCEngineConfiguration(tileWhenPagesExceed: nil, maxServiceDescriptionBytes: 16)
        try await RealServerSupport.withEngine(configuration: blind) { engine, log in
            let result = try await RealServerSupport.query(engine, landing: server.landingURL, collection: collection, ServiceQuery())
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.featureIds.count == truth.count, "no id twice")
            #expect(result.isComplete)
            #expect(log.items.count == truth.count / Self.pageSize + 1, "\(log.items)")
            #expect(log.items.first?.contains("limit=\(blind.defaultPageLimit)") == true, "\(log.items)")
        }
    }

    /// Cities in a box: dozens of pages of 7; the engine tiles the box, and the tiles' union is the
    /// selection (no duplicates, nothing lost), with and without a clause the worker evaluates.
    @Test(arguments: OGCEnginePygeoapiTests.providers, [nil, "POP2000 > 20000"])
    func aManyPageSelectionIsCompleteThroughTiles(_ provider: OGCEnginePygeoapiTests.Provider, _ clause: String?) async throws {
        let server = try await Self.smallPages.value
        let service = try await PygeoapiSampleService.shared()
        let collection = provider.collection(service.cities)
        let truth = try Self.truth(.cities, where: clause, envelope: Self.box)
        let inBox = try Self.truth(.cities, envelope: Self.box)
        #expect(inBox.count > 5 * Self.pageSize, "enough pages to tile")
        try await RealServerSupport.withEngine { engine, log in
            let query = ServiceQuery(whereClause: try clause.map { try WhereClause($0) }, geometry: .envelope(Self.box))
            let result = try await RealServerSupport.query(engine, landing: server.landingURL, collection: collection, query)
            #expect(try RealServerSupport.sortedIntegerIDs(result) == truth)
            #expect(result.featureIds.count == truth.count, "no id twice")
            #expect(result.count == truth.count)
            #expect(result.isComplete, "\(String(describing: result.incompleteReason))")
            #expect(result.filteredBy == (clause == nil ? .server : .client))
            let boxes = Set(log.items.compactMap { $0.split(separator: "&").first { $0.hasPrefix("bbox=") } })
            #expect(boxes.count > 1, "tiled: \(boxes)")
            #expect(log.items.count >= inBox.count / Self.pageSize, "every page read")
            #expect(!log.itemsSent(parameter: "filter"))
        }
    }

    /// A count the worker filters reads every page; without a clause the first page's `numberMatched`
    /// answers it.
    @Test(arguments: OGCEnginePygeoapiTests.providers)
    func countsAreExact(_ provider: OGCEnginePygeoapiTests.Provider) async throws {
        let server = try await Self.smallPages.value
        let service = try await PygeoapiSampleService.shared()
        let collection = provider.collection(service.cities)
        try await RealServerSupport.withEngine { engine, log in
            let whole = try await RealServerSupport.query(engine, landing: server.landingURL, collection: collection, ServiceQuery(result: .count))
            #expect(whole.count == service.cities.featureCount)
            #expect(log.items.count == 1, "\(log.items)")
            let clause = "POP2000 > 20000"
            let filtered = try await RealServerSupport.query(
                engine, landing: server.landingURL, collection: collection,
                ServiceQuery(whereClause: try WhereClause(clause), geometry: .envelope(Self.box), result: .count))
            #expect(filtered.count == (try Self.truth(.cities, where: clause, envelope: Self.box)).count)
            #expect(filtered.isComplete)
            #expect(filtered.filteredBy == .client)
        }
    }

    /// Cancelling the calling task while the engine pages pygeoapi's cities (500 pages of 7, one `next`
    /// sequence or tiled) ends the query at once with `cancelled` (FeatureServiceEngine's contract), and no
    /// request follows.
    ///
    /// Known engine bug (tiled only): `CollectionQueryRunner.runTiles` reads its tiles' events with
    /// `for try await event in events`, and an `AsyncThrowingStream`'s iterator returns nil when the calling
    /// task is cancelled, so the loop ends as if every tile were done; `run()` then answers the partial
    /// collector as a success (`isComplete: false`, reason `count_mismatch`, `count` = numberMatched) instead
    /// of failing `cancelled`. A `try Task.checkCancellation()` after the loop fixes it.
    @Test(arguments: [false, true])
    func cancellationEndsPagingARealServer(tiled: Bool) async throws {
        let server = try await Self.smallPages.value
        let service = try await PygeoapiSampleService.shared()
        let collection = service.cities.postGISCollection
        let configuration = OGCEngineConfiguration(tileWhenPagesExceed: tiled ? 4 : nil)
        try await RealServerSupport.withEngine(configuration: configuration) { engine, log in
            let task = Task {
                await engine.query(
                    [ServiceTarget(kind: .ogc, url: server.landingURL, layers: [collection])], ServiceQuery(), budget: .unlimited())
            }
            while log.items.count < 10 { try await Task.sleep(for: .milliseconds(10)) }
            let cancelled = ContinuousClock.now
            task.cancel()
            let outcome = try #require(await task.value.first?.first)
            // Only a guard against a hang: the page counts below tell an early end from a late one, and a
            // tight time bound would judge the machine's load instead.
            #expect(ContinuousClock.now - cancelled < .seconds(30))
            let pagesWhenCancelled = log.items.count
            #expect(pagesWhenCancelled < service.cities.featureCount / Self.pageSize)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.items.count == pagesWhenCancelled, "no request after the outcome")
            switch outcome.result {
            case .failure(let error):
                #expect(error.code == .cancelled)
            case .success(let result):
                Issue.record("a cancelled query succeeded: \(result.featureIds.count) ids, \(String(describing: result.incompleteReason))")
            }
        }
    }

    /// A result budget spent part way through the tiles answers what it holds, marked incomplete.
    @Test func aSpentResultBudgetAnswersWhatItHolds() async throws {
        let server = try await Self.smallPages.value
        let service = try await PygeoapiSampleService.shared()
        try await RealServerSupport.withEngine { engine, _ in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .ogc, url: server.landingURL, layers: [service.cities.postGISCollection])],
                ServiceQuery(returnGeometry: true, result: .features), budget: ResultBudget(limit: 20_000))
            let result = try #require(outcomes.first?.first).result.get()
            #expect(!result.isComplete)
            #expect(result.incompleteReason == .resultBudget)
            #expect(result.featureIds.count > 0 && result.featureIds.count < service.cities.featureCount)
            #expect(result.count == service.cities.featureCount, "the server's numberMatched")
        }
    }

    /// A collection the landing page does not list fails as that collection, `not_found`, without a request
    /// for items.
    @Test func anUnknownCollectionIsNotFound() async throws {
        let server = try await Self.smallPages.value
        try await RealServerSupport.withEngine { engine, log in
            let outcomes = await engine.query(
                [ServiceTarget(kind: .ogc, url: server.landingURL, layers: ["nowhere", "states"])], ServiceQuery(), budget: .unlimited())
            let results = try #require(outcomes.first)
            #expect(results.count == 2)
            guard case .failure(let error) = results.first?.result else { throw RealServerFailure("an unknown collection answered") }
            #expect(error.code == .notFound)
            #expect(error.message.contains("nowhere"))
            #expect(results.last.map { (try? $0.result.get())?.isComplete == true } == true)
            #expect(!log.items.contains { $0.contains("/nowhere/") })
        }
    }

    /// A box of a few hundred cities (Texas, Oklahoma, Kansas).
    static let box = Envelope(xmin: -100, ymin: 30, xmax: -95, ymax: 38, spatialReference: .wgs84)
}
