import CurlHTTP
import HTTPTestServer
import Testing
import HummingbirdCore

/// The client's loop thread as a task executor (`HTTPClient.taskExecutor`): tasks that prefer it run there,
/// their requests complete, cancellation still aborts a transfer, and nothing hangs when the loop stops under
/// them.
@Suite("The loop as a task executor")
struct LoopExecutorTests {
    @Test("A task that prefers the loop runs on the loop thread, before and after its requests")
    func runsOnLoopThread() async throws {
        try await TestSupport.withServer({ request in .text(request.uri.path) }) { server in
            try await TestSupport.withClient { client in
                #expect(!client.isOnLoopThread)
                let placements = try await withTaskExecutorPreference(client.taskExecutor) {
                    var placements = [client.isOnLoopThread]
                    for index in 0..<3 {
                        let response = try await client.execute(HTTPRequest(url: server.url("/\(index)")))
                        #expect(response.bodyString == "/\(index)")
                        placements.append(client.isOnLoopThread)
                    }
                    return placements
                }
                #expect(placements == [true, true, true, true])
                #expect(!client.isOnLoopThread)
            }
        }
    }

    @Test("64 tasks on the loop send 1,280 requests; all complete and the client ends idle")
    func manyTasksOnLoop() async throws {
        try await TestSupport.withServer({ request in .text(request.uri.path) }) { server in
            try await TestSupport.withClient { client in
                let offLoop = try await withThrowingTaskGroup(of: Int.self) { group in
                    for task in 0..<64 {
                        group.addTask(executorPreference: client.taskExecutor) {
                            var offLoop = 0
                            for index in 0..<20 {
                                let response = try await client.execute(HTTPRequest(url: server.url("/\(task)/\(index)")))
                                #expect(response.bodyString == "/\(task)/\(index)")
                                if !client.isOnLoopThread { offLoop += 1 }
                            }
                            return offLoop
                        }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(offLoop == 0)
                #expect(client.statistics.activeTransfers == 0)
            }
        }
    }

    @Test("Cancelling a task on the loop aborts its transfer at once")
    func cancelOnLoop() async throws {
        try await TestSupport.withServer({ request in
            try await Task.sleep(for: .seconds(30))
            return .text("late")
        }) { server in
            try await TestSupport.withClient { client in
                let clock = ContinuousClock()
                let started = clock.now
                let task = Task(executorPreference: client.taskExecutor) {
                    try await client.execute(HTTPRequest(url: server.url("/slow")))
                }
                #expect(await TestSupport.eventually { client.statistics.activeTransfers == 1 })
                task.cancel()
                await #expect(throws: CancellationError.self) { try await task.value }
                #expect(clock.now - started < .seconds(10))
                #expect(await TestSupport.eventually { client.statistics.activeTransfers == 0 })
            }
        }
    }

    @Test("Tasks on the loop when it shuts down get a shutdown error and go on running on the pool")
    func shutdownUnderTasks() async throws {
        try await TestSupport.withServer({ request in
            try await Task.sleep(for: .seconds(30))
            return .text("late")
        }) { server in
            let client = try HTTPClient(logger: TestSupport.logger)
            let tasks = (0..<8).map { index in
                Task(executorPreference: client.taskExecutor) { () -> (String, Bool) in
                    do {
                        _ = try await client.execute(HTTPRequest(url: server.url("/\(index)")))
                        return ("answered", client.isOnLoopThread)
                    } catch let error as HTTPError {
                        // A suspension after the loop stopped: the job runs on the pool.
                        try? await Task.sleep(for: .milliseconds(1))
                        return ("\(error.code)", client.isOnLoopThread)
                    } catch {
                        return ("\(error)", client.isOnLoopThread)
                    }
                }
            }
            #expect(await TestSupport.eventually { client.statistics.activeTransfers == 8 })
            await client.shutdown()
            for task in tasks {
                let (ending, onLoop) = await task.value
                #expect(ending == "shutdown")
                #expect(!onLoop)
            }
        }
    }
}
