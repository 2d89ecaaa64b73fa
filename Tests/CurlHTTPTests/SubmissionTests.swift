import CurlHTTP
import HTTPTestServer
import Synchronization
import Testing
import HummingbirdCore

/// The loop's command queue under load: wakeups are sent only to a sleeping loop and outside the lock, so
/// these check that no submission is left waiting (every request ends) and that shutdown, racing with
/// submissions, fails the late ones cleanly.
@Suite("Submitting to the loop")
struct SubmissionTests {
    @Test("2,000 requests from 100 tasks at once all complete, and the client ends idle")
    func manySubmitters() async throws {
        try await TestSupport.withServer({ request in .text(request.uri.path) }) { server in
            try await TestSupport.withClient { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for task in 0..<100 {
                        group.addTask {
                            for index in 0..<20 {
                                let response = try await client.execute(HTTPRequest(url: server.url("/\(task)/\(index)")))
                                #expect(response.bodyString == "/\(task)/\(index)")
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                #expect(client.statistics.activeTransfers == 0)
            }
        }
    }

    @Test("Requests cancelled as they are submitted end, and the rest still complete")
    func cancelWhileSubmitting() async throws {
        try await TestSupport.withServer({ request in
            try await Task.sleep(for: .milliseconds(1))
            return .text(request.uri.path)
        }) { server in
            try await TestSupport.withClient { client in
                for round in 0..<20 {
                    let tasks = (0..<20).map { index in
                        Task { try await client.execute(HTTPRequest(url: server.url("/\(round)/\(index)"))) }
                    }
                    for (index, task) in tasks.enumerated() where index % 3 == 0 { task.cancel() }
                    for (index, task) in tasks.enumerated() {
                        do {
                            let response = try await task.value
                            #expect(response.bodyString == "/\(round)/\(index)")
                        } catch {
                            #expect(index % 3 == 0, "only cancelled requests fail: \(error)")
                        }
                    }
                }
                #expect(await TestSupport.eventually { client.statistics.activeTransfers == 0 })
            }
        }
    }

    @Test("Shutdown racing with submissions: every request ends, late ones with a shutdown error")
    func shutdownWhileSubmitting() async throws {
        try await TestSupport.withServer({ request in .text(request.uri.path) }) { server in
            for _ in 0..<5 {
                let client = try HTTPClient(logger: TestSupport.logger)
                let outcomes = Tally()
                await withTaskGroup(of: Void.self) { group in
                    for task in 0..<16 {
                        group.addTask {
                            for index in 0..<30 {
                                do {
                                    _ = try await client.execute(HTTPRequest(url: server.url("/\(task)/\(index)")))
                                    outcomes.counts.withLock { $0.succeeded += 1 }
                                } catch let error as HTTPError where error.code == .shutdown {
                                    outcomes.counts.withLock { $0.shutDown += 1 }
                                } catch {
                                    outcomes.counts.withLock { $0.other.append("\(error)") }
                                }
                            }
                        }
                    }
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(20))
                        await client.shutdown()
                    }
                }
                let (succeeded, shutDown, other) = outcomes.counts.withLock { $0 }
                #expect(succeeded + shutDown == 16 * 30)
                #expect(other.isEmpty, "\(other.prefix(3))")
                let late = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/late"))) }
                #expect(late?.code == .shutdown)
            }
        }
    }
}

/// Outcomes counted across tasks.
private final class Tally: Sendable {
    let counts = Mutex<(succeeded: Int, shutDown: Int, other: [String])>((0, 0, []))
}
