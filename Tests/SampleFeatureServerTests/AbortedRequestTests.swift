import CurlHTTP
import SampleFeatureServer
import Testing

@Suite("Aborted requests")
struct AbortedRequestTests {
    @Test("a client that times out during added latency is counted as aborted")
    func clientTimeout() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 30_000), pathContains: "/query")])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let options = HTTPRequestOptions(timeout: .milliseconds(300))
            await #expect(throws: HTTPError.self) {
                _ = try await client.get(server.queryURL(.states), [("where", "1=1"), ("f", "json")], options: options)
            }
            // Aborted long before the 30 s of latency ran out: the handler was cancelled, not completed.
            #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted == 1 })
            #expect(server.statistics.queries(.states) == 0)
            // The server goes on serving.
            server.setFaults([])
            #expect(try await client.query(server, .states, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]).countResult == 49)
            #expect(server.statistics.aborted == 1)
        }
    }
}
