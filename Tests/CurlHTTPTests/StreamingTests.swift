import CurlHTTP
import LoopbackHTTP
import Testing

/// Streaming responses deliver every byte in order, hold back a fast server when the reader is slow, and
/// abort the transfer when the reader goes away.
@Suite("Streaming responses")
struct StreamingTests {
    static let size = 20 * 1024 * 1024

    @Test("A 20 MB chunked body arrives complete and in order, and a slow reader holds the server back")
    func largeBodyInOrderWithBackpressure() async throws {
        try await TestSupport.withServer({ _ in .generated(totalBytes: Self.size, headers: ["Content-Type": "application/octet-stream"]) }) { server in
            try await TestSupport.withClient { client in
                let response = try await client.stream(HTTPRequest(url: server.url("/export")))
                #expect(response.status == 200)
                #expect(response.headers["Transfer-Encoding"] == "chunked")
                let block = (0..<251).map { UInt8($0) }
                var offset = 0
                var mismatch: Int?
                var paused = false
                for try await chunk in response.body {
                    if mismatch == nil, chunk != LoopbackResponse.cyclic(block, from: offset, count: chunk.count) { mismatch = offset }
                    offset += chunk.count
                    if !paused, offset >= 1024 * 1024 {
                        // Stop reading: the server gets only as far ahead as the buffers on the way allow (the
                        // client's bounded queue, the kernel's socket buffers), then its writes wait.
                        paused = true
                        let sentWhilePaused = await Self.progressStops { server.statistics.bodyBytesSent }
                        #expect(sentWhilePaused < Self.size, "the server wrote the whole body to a reader that had stopped")
                    }
                }
                #expect(mismatch == nil)
                #expect(offset == Self.size)
            }
            #expect(await server.waitUntil { $0.requestsServed == 1 })
        }
    }

    /// Polls `value` until it stops growing (or 15 s pass) and returns it.
    private static func progressStops(_ value: () -> Int) async -> Int {
        let deadline = ContinuousClock.now + .seconds(15)
        var last = value()
        while ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(300))
            let now = value()
            if now == last { return now }
            last = now
        }
        return last
    }

    @Test("Dropping a stream mid-way aborts the transfer: the server sees the connection closed")
    func droppedStreamAborts() async throws {
        try await TestSupport.withServer({ _ in .generated(totalBytes: Self.size) }) { server in
            try await TestSupport.withClient { client in
                var received = 0
                do {
                    let response = try await client.stream(HTTPRequest(url: server.url("/export")))
                    for try await chunk in response.body {
                        received += chunk.count
                        if received >= 1024 * 1024 { break }
                    }
                }
                #expect(received >= 1024 * 1024)
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
                #expect(server.statistics.requestsServed == 0)
                #expect(await TestSupport.eventually { client.statistics.activeTransfers == 0 })
                #expect(ProcessResources.clientSockets(toPort: server.port) == 0)
            }
        }
    }

    @Test("Cancelling the task that reads a stream throws CancellationError and aborts the transfer")
    func cancelledReader() async throws {
        try await TestSupport.withServer({ _ in .chunks(Array(repeating: Array("tick\n".utf8), count: 600), delay: .milliseconds(100)) }) { server in
            try await TestSupport.withClient { client in
                let firstChunk = AsyncStream<Void>.makeStream()
                let reader = Task {
                    let response = try await client.stream(HTTPRequest(url: server.url("/ticks")))
                    for try await _ in response.body { firstChunk.continuation.yield() }
                }
                var iterator = firstChunk.stream.makeAsyncIterator()
                _ = await iterator.next()
                reader.cancel()
                await #expect(throws: CancellationError.self) { try await reader.value }
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
                #expect(await TestSupport.eventually { client.statistics.activeTransfers == 0 })
            }
        }
    }
}
