import CurlHTTP
import HTTPTestServer
import Testing
import HummingbirdCore

/// Requests share kept-alive connections, within the per-host limit.
@Suite("Connection reuse")
struct ConnectionReuseTests {
    @Test("Sequential requests reuse one connection")
    func sequentialReuse() async throws {
        try await TestSupport.withServer({ request in .text(request.uri.path) }) { server in
            try await TestSupport.withClient { client in
                for index in 0..<20 {
                    let response = try await client.execute(HTTPRequest(url: server.url("/\(index)")))
                    #expect(response.bodyString == "/\(index)")
                }
            }
            // The counter moves just after the last byte is written: the client may be faster.
            #expect(await server.waitUntil { $0.requestsServed == 20 })
            #expect(server.statistics.connectionsAccepted == 1)
        }
    }

    @Test("1,000 requests at concurrency 64 with 8 connections per host use at most 8 connections")
    func concurrentRequestsShareConnections() async throws {
        let total = 1000
        let concurrency = 64
        try await TestSupport.withServer({ request in
            // A little latency, so that requests really overlap.
            try await Task.sleep(for: .milliseconds(2))
            return .text("answer to \(request.uri.path)")
        }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(maxConnectionsPerHost: 8)) { client in
                let failures = try await withThrowingTaskGroup(of: Int.self) { group in
                    var next = 0
                    var failures = 0
                    func add() {
                        let index = next
                        next += 1
                        group.addTask {
                            let response = try await client.execute(HTTPRequest(url: server.url("/feature/\(index)")))
                            return response.status == 200 && response.bodyString == "answer to /feature/\(index)" ? 0 : 1
                        }
                    }
                    for _ in 0..<concurrency { add() }
                    while let failed = try await group.next() {
                        failures += failed
                        if next < total { add() }
                    }
                    return failures
                }
                #expect(failures == 0)
                #expect(client.statistics.activeTransfers == 0)
            }
            #expect(await server.waitUntil { $0.requestsServed == total }, "\(server.statistics)")
            #expect(server.statistics.connectionsAccepted <= 8)
        }
    }
}
