import FeatureGeometry
import FeatureService
import FeatureServiceEngines
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import OGCEngine
import CurlHTTP

/// The engine against the sample feature server's OGC face and each of its quirks: every quirk mount gives
/// the same selection as the honest one, or fails with the quirk's code.
@Suite("OGC engine against the sample server's OGC face")
struct SampleServerInteropTests {
    static func withSample<T>(_ body: (SampleFeatureServer, OGCEngine) async throws -> T) async throws -> T {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 3),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        var configuration = OGCTestServer.fastConfiguration
        configuration.defaultPageLimit = 10
        let engine = OGCEngine(httpClient: client, configuration: configuration, logger: OGCTestServer.logger)
        do {
            let result = try await body(server, engine)
            await client.shutdown()
            await server.shutdown()
            return result
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
    }

    static func run(_ engine: OGCEngine, _ landing: String, _ query: ServiceQuery, collection: String = "USA_States") async -> ServiceLayerOutcome {
        await engine.query([ServiceTarget(kind: .ogc, url: landing, layers: [collection])], query, budget: .unlimited())[0][0]
    }

    @Test func everyPagingQuirkGivesTheHonestSelectionOrItsError() async throws {
        try await Self.withSample { server, engine in
            let honest = try #require(await Self.run(engine, server.ogcURL(quirks: []), ServiceQuery(result: .ids)).success)
            #expect(honest.featureIds.count == 49 && honest.isComplete)
            for quirks in [["cursor"], ["relative-links"], ["max-limit-7"], ["max-limit-7", "strict-limit"], ["spurious-next"],
                           ["empty-page"], ["duplicates"], ["no-number-matched"], ["cursor", "relative-links", "duplicates", "empty-page"]] {
                let outcome = await Self.run(engine, server.ogcURL(quirks: quirks), ServiceQuery(result: .ids))
                // Same features; a collection of more than a few pages is fetched as tiles, in tile order.
                #expect(outcome.success.map { Set($0.featureIds) } == Set(honest.featureIds), "\(quirks): \(String(describing: outcome.failure))")
                #expect(outcome.success?.featureIds.count == 49, "\(quirks)")
                #expect(outcome.success?.isComplete == true, "\(quirks)")
            }
            let wrong = await Self.run(engine, server.ogcURL(quirks: ["wrong-number-matched", "max-limit-7"]), ServiceQuery(result: .ids))
            #expect(wrong.success?.incompleteReason == .countMismatch)
            #expect(await Self.run(engine, server.ogcURL(quirks: ["other-origin", "max-limit-7"]), ServiceQuery(result: .ids)).failure?.code == .foreignNextLink)
            #expect(await Self.run(engine, server.ogcURL(quirks: ["next-cycle", "max-limit-7"]), ServiceQuery(result: .ids)).failure?.code == .pagingCycle)
        }
    }

    @Test func whereClausesAreRightWhetherTheServerFiltersIgnoresOrCannot() async throws {
        try await Self.withSample { server, engine in
            let clause = try WhereClause("STATE_ABBR IN ('CA', 'NV') OR STATE_NAME LIKE 'New%'")
            let honest = try #require(await Self.run(engine, server.ogcURL(quirks: []), ServiceQuery(whereClause: clause, result: .ids)).success)
            #expect(honest.featureIds.count == 6)
            for quirks in [["filter-ignored"], ["no-filter"], ["no-filter", "cursor"]] {
                let outcome = await Self.run(engine, server.ogcURL(quirks: quirks), ServiceQuery(whereClause: clause, result: .ids))
                #expect(outcome.success?.featureIds == honest.featureIds, "\(quirks): \(String(describing: outcome.failure))")
                #expect(outcome.success?.filteredBy == .client, "\(quirks)")
            }
            #expect(honest.filteredBy == .server)
        }
    }

    @Test func theDaraaLookAlikeIsCutAtMaxFeaturesTiledAndBrowsed() async throws {
        try await Self.withSample { server, engine in
            let landing = server.ogcURL(quirks: [])
            let cut = await Self.run(
                engine, landing, ServiceQuery(returnGeometry: true, maxFeatures: 1_000, result: .features), collection: "TransportationGroundCrv")
            let result = try #require(cut.success, "\(String(describing: cut.failure))")
            #expect(result.count == 3_712 && !result.isComplete && result.incompleteReason == .maxFeatures)
            #expect(result.featureIds.count == 1_000)
            // Pages of 100 (the mount's maximum): 38 pages, so tiles; curves cross tile edges, ids count them once.
            let tiled = await Self.run(engine, server.ogcURL(quirks: ["max-limit-100"]), ServiceQuery(result: .ids), collection: "TransportationGroundCrv")
            let whole = try #require(tiled.success, "\(String(describing: tiled.failure))")
            #expect(whole.isComplete && whole.count == 3_712)
            #expect(Set(whole.featureIds).count == 3_712)
            let catalog = await engine.query([ServiceTarget(kind: .ogc, url: landing)], ServiceQuery(result: .catalog), budget: .unlimited())
            guard case .catalog(let entries)? = catalog[0][0].success?.selection else {
                Issue.record("a catalog expected")
                return
            }
            #expect(entries.contains { $0.id == "TransportationGroundCrv" && $0.extent != nil && !$0.filterLanguages.isEmpty })
        }
    }

    @Test("the seed clauses over the seed extent select the same parcels from the ArcGIS layer and the OGC collection",
          arguments: NamedQueryCatalog.builtInExamples.map(\.clause))
    func seedClauseParity(_ clause: String) async throws {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 3),
            dataset: try SampleDataset.shared(parcelCount: 20_000, seed: 3), logger: OGCTestServer.logger)
        let client = try HTTPClientFixture.make()
        let router = StandardEngines.router(
            httpClient: client, limits: StandardEngines.Limits(maxRequestsPerHost: 8, requestTimeout: .seconds(30)),
            logger: OGCTestServer.logger)
        let query = ServiceQuery(
            whereClause: try WhereClause(clause), geometry: .envelope(SampleDataset.seedExtent), result: .ids)
        let outcomes = await router.query([
            ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels)),
            ServiceTarget(kind: .ogc, url: server.ogcURL(quirks: []), layers: ["LA_County_Parcels"]),
        ], query, budget: .unlimited())
        await client.shutdown()
        await server.shutdown()
        guard case .objectIds(let arcgis)? = outcomes[0][0].success?.selection else {
            Issue.record("ArcGIS: \(String(describing: outcomes[0][0].failure))")
            return
        }
        let ogc = try #require(outcomes[1][0].success, "\(String(describing: outcomes[1][0].failure))")
        #expect(!arcgis.isEmpty)
        #expect(Set(ogc.featureIds.compactMap { id -> Int64? in if case .integer(let value)? = id { value } else { nil } }) == Set(arcgis))
        #expect(ogc.featureIds.count == arcgis.count && ogc.count == arcgis.count && ogc.isComplete)
        #expect(ogc.filteredBy == .server)
    }
}
