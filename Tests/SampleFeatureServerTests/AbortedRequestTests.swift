import CurlHTTP
import SampleFeatureServer
import Testing

@Suite("Aborted requests")
struct AbortedRequestTests {
    @Test("a client that times out during added latency is counted as aborted")
    func clientTimeout() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 5_000), pathContains: "/query")])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let options = HTTPRequestOptions(timeout: .milliseconds(300))
            let clock = ContinuousClock()
            let started = clock.now
            await #expect(throws: HTTPError.self) {
                _ = try await client.get(server.queryURL(.states), [("where", "1=1"), ("f", "json")], options: options)
            }
            #expect(await server.waitUntil(timeout: .seconds(4)) { $0.aborted == 1 })
            #expect(clock.now - started < .seconds(4))
            #expect(server.statistics.queries(.states) == 0)
            // The server goes on serving.
            server.setFaults([])
            #expect(try await client.query(server, .states, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]).countResult == 49)
            #expect(server.statistics.aborted == 1)
        }
    }
}
