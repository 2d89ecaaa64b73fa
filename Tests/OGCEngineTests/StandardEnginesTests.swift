import FeatureService
import FeatureServiceEngines
import Testing

@testable import OGCEngine
import CurlHTTP
import HTTPTestServer

/// The worker's router sends `ogc` targets to this engine, with the worker's limits.
@Suite("OGC behind the standard router")
struct StandardEnginesTests {
    @Test func theRouterAnswersAnOGCTargetAndBoundsItsLayers() async throws {
        let server = try await OGCTestServer.start(
            collections: [OGCTestServer.collection("a"), OGCTestServer.collection("b")]
        ) { _ in .json(OGCTestServer.page([OGCTestServer.feature(id: "7")], numberMatched: 1)) }
        let client = try HTTPClientFixture.make()
        let router = StandardEngines.router(
            httpClient: client,
            limits: StandardEngines.Limits(maxRequestsPerHost: 4, requestTimeout: .seconds(10), maxLayersPerRequest: 1),
            logger: OGCTestServer.logger)
        #expect(router.kinds == [.arcgis, .ogc])
        let one = await router.query(
            [ServiceTarget(kind: .ogc, url: server.landing, layers: ["b"])], ServiceQuery(result: .count), budget: .unlimited())
        #expect(one[0][0].success?.count == 1)
        #expect(one[0][0].url == server.landing + "/collections/b")
        let all = await router.query([ServiceTarget(kind: .ogc, url: server.landing)], ServiceQuery(result: .count), budget: .unlimited())
        #expect(all[0].map { $0.failure?.code } == [.tooManyLayers])
        let engine = StandardEngines.ogc(httpClient: client, limits: StandardEngines.Limits(maxRequestsPerHost: 3, requestTimeout: .seconds(5)), logger: OGCTestServer.logger)
        #expect(engine.configuration.maxConcurrentRequestsPerHost == 3 && engine.configuration.requestTimeout == .seconds(5))
        await client.shutdown()
        await server.shutdown()
    }
}
