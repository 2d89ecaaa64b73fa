import FeatureService
import HTTPTestServer
import Synchronization
import Testing

@testable import OGCEngine
import CurlHTTP
import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Landing page, conformance, collections (paged, `#/crs`), queryables, and the catalog answer.
@Suite("OGC discovery and catalog")
struct DiscoveryTests {
    @Test func aCatalogListsCollectionsWithTheirMetadata() async throws {
        let first = OGCTestServer.collection(
            "roads", extent: "[35.9,32.4,36.6,33.2]",
            extra: ##","description":"Roads","crs":["#/crs","http://www.opengis.net/def/crs/EPSG/0/3857"],"storageCrs":"http://www.opengis.net/def/crs/EPSG/0/4326","itemType":"feature""##)
        let second = OGCTestServer.collection("tiles", extra: #","itemType":"record""#)
        let third = #"{"id":"bare","links":[{"rel":"http://www.opengis.net/def/rel/ogc/1.0/queryables","href":"/nowhere"}]}"#
        let server = try await OGCTestServer.start(
            conformance: OGCTestServer.cql2Text + ["http://www.opengis.net/spec/cql2/1.0/conf/cql2-json"], collections: [first, second, third],
            queryables: #"{"properties":{"NAME":{"type":"string"},"F_CODE":{"type":"string"}}}"#) { _ in .json(OGCTestServer.page([])) }
        let outcomes = try await server.withEngine { engine in
            await engine.query([ServiceTarget(kind: .ogc, url: server.landing + "/")], ServiceQuery(result: .catalog), budget: .unlimited())
        }
        #expect(outcomes.count == 1 && outcomes[0].count == 1)
        let result = try #require(outcomes[0][0].success)
        #expect(result.url == server.landing && result.count == 3 && result.isComplete)
        guard case .catalog(let entries) = result.selection else {
            Issue.record("a catalog expected")
            return
        }
        #expect(entries.map(\.id) == ["roads", "tiles", "bare"])
        #expect(entries[0].url == server.landing + "/collections/roads")
        #expect(entries[0].description == "Roads")
        #expect(entries[0].extent == [35.9, 32.4, 36.6, 33.2])
        #expect(entries[0].crs == ["http://www.opengis.net/def/crs/EPSG/0/3857"])
        #expect(entries[0].storageCrs == "http://www.opengis.net/def/crs/EPSG/0/4326")
        #expect(entries[0].filterLanguages == ["cql2-text", "cql2-json"])
        #expect(entries[0].queryables == ["F_CODE", "NAME"])
        #expect(entries[1].itemType == "record")
        #expect(entries[1].crs == ["http://www.opengis.net/def/crs/OGC/1.3/CRS84"])
        // Without queryables nothing is pushed: every filter of that collection runs in the worker.
        #expect(entries[2].queryables == nil && entries[2].filterLanguages.isEmpty && entries[2].itemType == "feature")
    }

    @Test func collectionsArePagedByNextAndSharedLoadsHappenOnce() async throws {
        let collectionRequests = Mutex(0)
        let http = try await TestHTTPServer.start(logger: OGCTestServer.logger) { request in
            switch request.uri.path {
            case "/api":
                return .json(#"{"links":[{"rel":"http://www.opengis.net/def/rel/ogc/1.0/data","href":"api/colls","type":"application/json"}]}"#)
            case "/api/colls":
                collectionRequests.withLock { $0 += 1 }
                if request.uri.query == "p=2" {
                    return .json(##"{"crs":["http://www.opengis.net/def/crs/OGC/1.3/CRS84"],"collections":[{"id":"b","crs":["#/crs"]}],"links":[]}"##)
                }
                return .json(#"{"collections":[{"id":"a"}],"links":[{"rel":"next","href":"?p=2"}]}"#)
            case "/api/colls/b/items":
                return .json(OGCTestServer.page([OGCTestServer.feature(id: #""x""#)], numberMatched: 1))
            default:
                return .json("{}", status: 404)
            }
        }
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger)
        let target = ServiceTarget(kind: .ogc, url: http.url("/api"), layers: ["b"])
        async let one = engine.query([target], ServiceQuery(result: .ids), budget: .unlimited())
        async let two = engine.query([target], ServiceQuery(result: .ids), budget: .unlimited())
        let answers = await [one, two]
        for answer in answers {
            #expect(answer[0][0].success?.featureIds == [.string("x")])
            #expect(answer[0][0].success?.url == http.url("/api/collections/b"))
        }
        #expect(collectionRequests.withLock { $0 } == 2)
        await client.shutdown()
        await http.stop()
    }

    @Test func redirectsWithinTheOriginAreFollowedAndLinksResolvedAgainstWhereTheyLed() async throws {
        let http = try await TestHTTPServer.start(logger: OGCTestServer.logger) { request in
            switch request.uri.path {
            case "/old": return .redirect(to: "/new/", type: .found)
            case "/new/": return .json(#"{"links":[{"rel":"data","href":"collections"}]}"#)
            case "/new/collections": return .json(#"{"collections":[{"id":"a"}]}"#)
            case "/new/collections/a/items":
                if request.queryItems.contains(where: { $0.name == "p" }) {
                    return .json(OGCTestServer.page([OGCTestServer.feature(id: "2")]))
                }
                return .redirect(to: "/new/collections/a/items/?limit=5", type: .permanent)
            case "/new/collections/a/items/":
                return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: "../items?p=2"))
            default: return .json("{}", status: 404)
            }
        }
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger)
        let outcomes = await engine.query(
            [ServiceTarget(kind: .ogc, url: http.url("/old"), layers: ["a"])], ServiceQuery(result: .ids), budget: .unlimited())
        #expect(outcomes[0][0].success?.featureIds == [.integer(1), .integer(2)], "\(String(describing: outcomes[0][0].failure))")
        await client.shutdown()
        await http.stop()
    }

    @Test func aLandingPageWithoutDataLinkIsMalformed() async throws {
        let http = try await TestHTTPServer.start(logger: OGCTestServer.logger) { _ in .json(#"{"links":[]}"#) }
        let client = try HTTPClientFixture.make()
        let engine = OGCEngine(httpClient: client, configuration: OGCTestServer.fastConfiguration, logger: OGCTestServer.logger)
        let outcomes = await engine.query(
            [ServiceTarget(kind: .ogc, url: http.url("/x"), layers: ["a"])], ServiceQuery(result: .count), budget: .unlimited())
        #expect(outcomes[0][0].failure?.code == .malformedResponse)
        await client.shutdown()
        await http.stop()
    }

    @Test func draftConformanceNamesAreAccepted() {
        let conformance = Conformance([
            "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter",
            "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter",
            "http://www.opengis.net/spec/cql2/0.0/conf/basic-cql2",
            "http://www.opengis.net/spec/cql2/0.0/conf/cql2-text",
            "http://www.opengis.net/spec/cql2/0.0/conf/basic-spatial-operators",
        ])
        #expect(conformance.filterLanguages == ["cql2-text"])
        #expect(conformance.declaresCQL2(["http://www.opengis.net/spec/cql2/1.0/conf/basic-spatial-functions"]))
        #expect(!conformance.declaresCQL2(["http://www.opengis.net/spec/cql2/1.0/conf/advanced-comparison-operators"]))
        #expect(Conformance(["http://www.opengis.net/spec/cql2/1.0/conf/cql2-text"]).filterLanguages.isEmpty)
    }
}
