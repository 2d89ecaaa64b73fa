import CurlHTTP
import HTTPTestServer
import Synchronization
import Testing

/// The connection policy hook: asked with the resolved address before a socket exists, and able to stop
/// the connection before anything reaches the server.
@Suite("Connection policy")
struct ConnectionPolicyTests {
    /// Attempts a policy saw.
    final class Attempts: Sendable {
        private let seen = Mutex<[HTTPConnectionAttempt]>([])
        func record(_ attempt: HTTPConnectionAttempt) { seen.withLock { $0.append(attempt) } }
        var all: [HTTPConnectionAttempt] { seen.withLock { $0 } }
    }

    private static let ok: TestHTTPServer.Handler = { _ in .text("ok", contentType: "text/plain") }

    @Test("a refused address fails the request with connection_refused_by_policy; the server sees no connection")
    func refused() async throws {
        let attempts = Attempts()
        let policy = HTTPConnectionPolicy { attempt in
            attempts.record(attempt)
            return false
        }
        try await TestSupport.withServer(Self.ok) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(connectionPolicy: policy)) { client in
                do {
                    _ = try await client.execute(HTTPRequest(url: server.url("/secret")))
                    Issue.record("the request went through")
                } catch let error as HTTPError {
                    #expect(error.code == .connectionRefusedByPolicy)
                    #expect(error.message.contains("connection to 127.0.0.1 port \(server.port)"), "\(error)")
                    #expect(error.message.contains("refused by policy"))
                    #expect(!error.isRetryable)
                }
            }
            #expect(server.statistics.connectionsAccepted == 0)
            #expect(attempts.all == [HTTPConnectionAttempt(host: "127.0.0.1", address: "127.0.0.1", port: server.port)])
        }
    }

    @Test("an allowed address connects; a kept-alive connection is not asked again")
    func allowedOncePerConnection() async throws {
        let attempts = Attempts()
        let policy = HTTPConnectionPolicy { attempt in
            attempts.record(attempt)
            return attempt.address == "127.0.0.1"
        }
        try await TestSupport.withServer(Self.ok) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(connectionPolicy: policy)) { client in
                for _ in 0..<3 {
                    let response = try await client.execute(HTTPRequest(url: server.url("/a")))
                    #expect(response.status == 200 && response.bodyString == "ok")
                }
            }
            #expect(server.statistics.connectionsAccepted == 1)
        }
        #expect(attempts.all.count == 1)
    }

    @Test("the policy sees the URL's host name and each address it resolves to")
    func hostName() async throws {
        let attempts = Attempts()
        let policy = HTTPConnectionPolicy { attempt in
            attempts.record(attempt)
            return attempt.address == "127.0.0.1"  // refuse ::1 if localhost resolves to it too
        }
        try await TestSupport.withServer(Self.ok) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(connectionPolicy: policy)) { client in
                let response = try await client.execute(HTTPRequest(url: "http://localhost:\(server.port)/a"))
                #expect(response.status == 200)
            }
        }
        #expect(attempts.all.allSatisfy { $0.host == "localhost" && $0.port > 0 })
        #expect(attempts.all.contains { $0.address == "127.0.0.1" })
        #expect(Set(attempts.all.map(\.address)).isSubset(of: ["127.0.0.1", "::1"]))
    }

    @Test("an IPv6 literal reaches the policy without brackets, and is refused before a socket exists")
    func ipv6Literal() async throws {
        let attempts = Attempts()
        let policy = HTTPConnectionPolicy { attempt in
            attempts.record(attempt)
            return false
        }
        try await TestSupport.withClient(HTTPClientConfiguration(connectionPolicy: policy)) { client in
            do {
                _ = try await client.execute(HTTPRequest(url: "http://[::1]:9/x"))
                Issue.record("the request went through")
            } catch let error as HTTPError {
                #expect(error.code == .connectionRefusedByPolicy, "\(error)")
            }
        }
        #expect(attempts.all == [HTTPConnectionAttempt(host: "::1", address: "::1", port: 9)])
    }

    @Test("without a policy nothing changes, and policies compare by identity")
    func identity() async throws {
        try await TestSupport.withServer(Self.ok) { server in
            try await TestSupport.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.url("/")))
                #expect(response.status == 200)
            }
        }
        let first = HTTPConnectionPolicy { _ in true }
        let second = HTTPConnectionPolicy { _ in true }
        #expect(first == first && first != second)
        #expect(HTTPClientConfiguration(connectionPolicy: first) != HTTPClientConfiguration(connectionPolicy: second))
        #expect(HTTPClientConfiguration() == HTTPClientConfiguration())
    }
}
