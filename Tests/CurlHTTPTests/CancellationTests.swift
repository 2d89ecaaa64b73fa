import CurlHTTP
import HTTPTestServer
import Synchronization
import Testing

/// Cancelling the task that awaits a request stops the transfer at once: the call throws
/// `CancellationError`, the connection is closed (the server sees it), and nothing is left behind.
@Suite("Cancellation")
struct CancellationTests {
    private static let neverAnswers: TestHTTPServer.Handler = { _ in
        try await Task.sleep(for: .seconds(120))
        return .text("too late")
    }

    @Test("Cancelling a waiting request throws CancellationError promptly and closes its connection")
    func cancelOne() async throws {
        try await TestSupport.withServer(Self.neverAnswers) { server in
            try await TestSupport.withClient { client in
                let task = Task { try await client.execute(HTTPRequest(url: server.url("/slow"))) }
                #expect(await server.waitUntil { $0.requestsReceived == 1 })
                let cancelled = ContinuousClock.now
                task.cancel()
                let result = await task.result
                #expect(ContinuousClock.now - cancelled < .seconds(10))
                #expect(throws: CancellationError.self) { try result.get() }
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
                #expect(client.statistics.activeTransfers == 0)
                #expect(ProcessResources.clientSockets(toPort: server.port) == 0)
            }
        }
    }

    @Test("A request from an already cancelled task throws CancellationError and sends nothing")
    func alreadyCancelled() async throws {
        try await TestSupport.withServer(Self.neverAnswers) { server in
            try await TestSupport.withClient { client in
                let task = Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return try await client.execute(HTTPRequest(url: server.url("/never")))
                }
                await #expect(throws: CancellationError.self) { try await task.value }
                #expect(client.statistics.activeTransfers == 0)
            }
            #expect(server.statistics.connectionsAccepted == 0)
        }
    }

    /// Outcomes of many requests, counted by kind.
    private struct Tally: Sendable {
        var cancelled = 0
        var other: [String] = []
    }

    @Test("10,000 requests in flight, cancelled together: all throw CancellationError, nothing leaks")
    func tenThousandCancelled() async throws {
        let count = 10_000
        try await TestSupport.withServer({ _ in
            // Far longer than the test: a request that completed would mean cancellation failed.
            try await Task.sleep(for: .seconds(120))
            return .text("too late")
        }) { server in
            let configuration = HTTPClientConfiguration()
            try await TestSupport.withClient(configuration) { client in
                let baseline = client.statistics
                let baselineDescriptors = ProcessResources.openFileDescriptors()
                let group = Task {
                    await withTaskGroup(of: String?.self) { group -> Tally in
                        for index in 0..<count {
                            group.addTask {
                                do {
                                    _ = try await client.execute(HTTPRequest(url: server.url("/slow/\(index)")))
                                    return "request \(index) completed"
                                } catch is CancellationError {
                                    return nil
                                } catch {
                                    return "request \(index) failed: \(error)"
                                }
                            }
                        }
                        var tally = Tally()
                        for await outcome in group {
                            if let outcome { tally.other.append(outcome) } else { tally.cancelled += 1 }
                        }
                        return tally
                    }
                }
                // Wait until every request is on the multi handle and the server holds as many as the
                // per-host connection limit allows; the rest queue inside libcurl.
                let allInFlight = await TestSupport.eventually(timeout: .seconds(30)) { client.statistics.activeTransfers == count }
                #expect(allInFlight)
                let perHost = configuration.maxConnectionsPerHost
                #expect(await server.waitUntil(timeout: .seconds(30)) { $0.requestsReceived >= perHost })
                #expect(server.statistics.requestsServed == 0)
                #expect(server.statistics.connectionsAccepted <= perHost)
                #expect(ProcessResources.clientSockets(toPort: server.port) <= perHost)
                group.cancel()
                let tally = await group.value
                #expect(tally.cancelled == count)
                #expect(tally.other.isEmpty, "\(tally.other.prefix(5))")

                let statistics = client.statistics
                #expect(statistics.activeTransfers == 0)
                #expect(statistics.easyHandles <= baseline.easyHandles + 256)
                // Every connection to the server was closed, on both sides.
                #expect(await TestSupport.eventually { ProcessResources.clientSockets(toPort: server.port) == 0 })
                #expect(await server.waitUntil { $0.openConnections == 0 })
                #expect(server.statistics.requestsServed == 0)
                // Other suites run in parallel in this process (Kafka clusters, servers, child processes with
                // their pipes), so the process-wide count gets a margin: 1,000 still catches a descriptor leaked
                // per request (10,000), and the two checks above catch the connections themselves.
                #expect(await TestSupport.eventually(timeout: .seconds(60)) { ProcessResources.openFileDescriptors() <= baselineDescriptors + 1_000 })
            }
        }
    }
}
