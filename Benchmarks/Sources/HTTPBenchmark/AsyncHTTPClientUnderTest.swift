import BenchmarkSupport

#if AsyncHTTPClientPeer
import AsyncHTTPClient
import NIOCore

/// The comparison, `AsyncHTTPClient.HTTPClient` on the shared (singleton) event loop group, through its
/// async API, with a connection pool that allows 64 concurrent HTTP/1.1 connections to the host.
final class AsyncHTTPClientUnderTest: Sendable {
    let client: AsyncHTTPClient.HTTPClient
    let request: HTTPClientRequest
    let expectedBodyBytes: Int

    init(url: String, expectedBodyBytes: Int, maxConnections: Int) throws {
        var configuration = AsyncHTTPClient.HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxConnections)
        client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        request = HTTPClientRequest(url: url)
        self.expectedBodyBytes = expectedBodyBytes
    }

    @Sendable func exchange() async throws {
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok, body.readableBytes == expectedBodyBytes else {
            throw BenchmarkError("AsyncHTTPClient: status \(response.status.code), \(body.readableBytes) body bytes (expected 200, \(expectedBodyBytes))")
        }
    }

    func shutdown() async throws { try await client.shutdown() }
}
#else
/// Built without the `AsyncHTTPClientPeer` trait: the peer cannot run (run-http-benchmark.sh builds with it).
final class AsyncHTTPClientUnderTest: Sendable {
    init(url: String, expectedBodyBytes: Int, maxConnections: Int) throws {
        throw BenchmarkError("AsyncHTTPClient is not built in: build http-benchmark with --traits AsyncHTTPClientPeer")
    }

    @Sendable func exchange() async throws {}
    func shutdown() async throws {}
}
#endif
