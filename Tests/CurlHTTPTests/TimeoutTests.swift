import ChildProcessFixture
import CurlHTTP
import HTTPTestServer
import Testing

/// Connect, total and low-speed limits each end a request with a retryable error of the right code.
/// Bounds on elapsed time are generous: they tell a limit that fired from one that never did.
@Suite("Connect, total and low-speed timeouts")
struct TimeoutTests {
    @Test("A host that never completes the handshake fails with a connect timeout")
    func connectTimeout() async throws {
        let listener = try UnresponsiveListener()
        defer { listener.close() }
        try await TestSupport.withClient(HTTPClientConfiguration(connectTimeout: .seconds(1))) { client in
            let started = ContinuousClock.now
            let error = await #expect(throws: HTTPError.self) {
                try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(listener.port)/layer"))
            }
            #expect(error?.code == .timeout)
            #expect(error?.isRetryable == true)
            #expect(ContinuousClock.now - started < .seconds(30))
            // The per-request option overrides the client's.
            let overridden = await #expect(throws: HTTPError.self) {
                let options = HTTPRequestOptions(connectTimeout: .milliseconds(500))
                _ = try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(listener.port)/", options: options))
            }
            #expect(overridden?.code == .timeout)
        }
    }

    @Test("A closed port on loopback refuses at once: a retryable connect error")
    func connectionRefused() async throws {
        let port = try ChildProcesses.unusedPort()
        try await TestSupport.withClient { client in
            let error = await #expect(throws: HTTPError.self) {
                try await client.execute(HTTPRequest(url: "http://127.0.0.1:\(port)/layer"))
            }
            #expect(error?.code == .connect)
            #expect(error?.isRetryable == true)
            #expect(error?.curlCode == 7)
            #expect(error?.message.contains("127.0.0.1:\(port)") == true)
        }
    }

    @Test("A body that trickles for longer than the total timeout fails with a timeout")
    func totalTimeout() async throws {
        let pieces = Array(repeating: Array("slow,".utf8), count: 60)
        try await TestSupport.withServer({ _ in .chunks(pieces, delay: .milliseconds(500)) }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(timeout: .seconds(60))) { client in
                let started = ContinuousClock.now
                let error = await #expect(throws: HTTPError.self) {
                    let options = HTTPRequestOptions(timeout: .seconds(1))
                    _ = try await client.execute(HTTPRequest(url: server.url("/slow"), options: options))
                }
                #expect(error?.code == .timeout)
                #expect(error?.isRetryable == true)
                #expect(ContinuousClock.now - started < .seconds(25))
                // The client closed the connection: the server sees its response abandoned.
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 && $0.openConnections == 0 })
                #expect(client.statistics.activeTransfers == 0)
            }
        }
    }

    @Test("A head that comes later than the total timeout fails with a timeout")
    func slowFirstByte() async throws {
        try await TestSupport.withServer({ _ in
            try await Task.sleep(for: .seconds(60))
            return .text("too late")
        }) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(timeout: .seconds(1))) { client in
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/late"))) }
                #expect(error?.code == .timeout)
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 })
            }
        }
    }

    @Test("A transfer slower than the low-speed limit fails with a timeout, with no total timeout set")
    func lowSpeedLimit() async throws {
        let pieces = Array(repeating: Array("x".utf8), count: 200)
        try await TestSupport.withServer({ _ in .chunks(pieces, delay: .milliseconds(200)) }) { server in
            let configuration = HTTPClientConfiguration(
                timeout: nil,
                lowSpeedLimit: .init(bytesPerSecond: 1000, duration: .seconds(1))
            )
            try await TestSupport.withClient(configuration) { client in
                let started = ContinuousClock.now
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/trickle"))) }
                #expect(error?.code == .timeout)
                #expect(error?.isRetryable == true)
                #expect(ContinuousClock.now - started < .seconds(30))
                #expect(await server.waitUntil { $0.responsesAbandoned == 1 })
            }
        }
    }
}
