import CurlHTTP
import SampleFeatureServer
import Testing

@Suite("OGC faults and statistics")
struct OGCFaultTests {
    @Test("HTTP faults match OGC paths as they match ArcGIS ones; items requests are counted per collection")
    func httpFaults() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.http503(retryAfterSeconds: 2), pathContains: "/ogc/collections/USA_Cities/items", trigger: .first(1))])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let failed = try await client.get(server.itemsURL("USA_Cities"))
            #expect(failed.status == 503 && failed.headers["Retry-After"] == "2")
            #expect(try await client.ogc(server.itemsURL("USA_Cities")).numberReturned == 10)
            _ = try await client.ogc(server.itemsURL("USA_Cities") + "/3")
            _ = try await client.ogc(server.ogcURL + "/collections")
            let statistics = server.statistics
            #expect(statistics.faults(.http503) == 1)
            #expect(statistics.ogcItemRequests("USA_Cities") == 2)
            #expect(statistics.recentOGCItemRequests("USA_Cities").count == 3)
            #expect(statistics.recentOGCItemRequests("USA_Cities").first?.layer == .cities)
        }
    }

    @Test("a client that gives up on an OGC page during added latency is counted as aborted")
    func abortedPage() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 30_000), pathContains: "/items", trigger: .window(skip: 1, count: nil))])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let first = try await client.ogc(server.itemsURL("TransportationGroundCrv"), [("limit", "100")])
            let next = try #require(first.nextHref)
            await #expect(throws: HTTPError.self) {
                _ = try await client.get(next, options: HTTPRequestOptions(timeout: .milliseconds(300)))
            }
            #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted == 1 })
            let statistics = server.statistics
            #expect(statistics.ogcItemRequests("TransportationGroundCrv") == 1)
            let log = statistics.recentOGCItemRequests("TransportationGroundCrv")
            #expect(log.count == 2 && log[0].abortedAt == nil && log[1].abortedAt != nil)
        }
    }

    @Test("short-pages faults trim OGC pages too, and next still leads on")
    func shortPages() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.shortPages(maximum: 4), pathContains: "/ogc/")])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let walk = try await OGCWalk.walk(client, server.itemsURL("USA_States") + "?limit=10")
            #expect(walk.ids == Array(1...49))
            #expect(walk.pages.allSatisfy { $0.features.count <= 4 })
        }
    }
}
