import CurlHTTP
import Testing

/// HTTP/2 over TLS: negotiated by ALPN, and concurrent requests multiplexed over one connection.
@Suite("HTTP/2 with nginx", .enabled(if: Tools.available("nginx", "openssl"), "nginx and openssl are needed (scripts/setup-deps installs them)"))
struct HTTP2Tests {
    @Test("Concurrent requests share one HTTP/2 connection")
    func multiplexed() async throws {
        try await NginxServer.with { nginx in
            let rule = HTTPCredentialRule(match: .origin(nginx.httpsURL), caBundlePath: nginx.pki.caCertificate)
            try await TestSupport.withClient(HTTPClientConfiguration(credentials: [rule])) { client in
                let first = try await client.execute(HTTPRequest(url: nginx.httpsURL + "/h2/warm-up"))
                #expect(first.httpVersion == "2")
                #expect(first.bodyString == "tls HTTP/2.0 /h2/warm-up\n")
                let versions = try await withThrowingTaskGroup(of: String.self) { group in
                    for index in 0..<100 {
                        group.addTask { try await client.execute(HTTPRequest(url: nginx.httpsURL + "/h2/\(index)")).httpVersion }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(versions == Array(repeating: "2", count: 100))
            }
            // nginx writes its log line just after the response: wait for all of them.
            let settled = await TestSupport.eventually { nginx.accessLog().filter { $0.uri.hasPrefix("/h2/") }.count == 101 }
            #expect(settled)
            let entries = nginx.accessLog().filter { $0.uri.hasPrefix("/h2/") }
            #expect(Set(entries.map(\.connection)).count == 1)
            #expect(entries.allSatisfy { $0.proto == "HTTP/2.0" && $0.status == 200 })
        }
    }

    @Test("With HTTP/2 turned off the same server is spoken to in HTTP/1.1")
    func disabled() async throws {
        try await NginxServer.with { nginx in
            let rule = HTTPCredentialRule(match: .origin(nginx.httpsURL), caBundlePath: nginx.pki.caCertificate)
            try await TestSupport.withClient(HTTPClientConfiguration(enableHTTP2: false, credentials: [rule])) { client in
                let response = try await client.execute(HTTPRequest(url: nginx.httpsURL + "/h1"))
                #expect(response.httpVersion == "1.1")
                #expect(response.bodyString == "tls HTTP/1.1 /h1\n")
            }
        }
    }
}
