import CurlHTTP
import Foundation
import HTTPTestServer
import Hummingbird
import Logging
import NetworkAuthFixture
import Testing

/// libcurl's verbose output reaches the client's logger at `.trace` only, and never with a credential,
/// a cookie, a query-parameter value or body bytes in it.
@Suite("Network authentication: verbose logs")
struct VerboseLogTests {
    static let markers = [
        "marker-authorization", "marker-esri", "marker-cookie", "marker-apikey", "marker-token-param",
        "marker-set-cookie", "marker-body", "marker-request-body", "marker-location", "marker-upstream-secret",
    ]

    @Test("At .trace the request and response heads are logged with every marked secret redacted")
    func redactedAtTrace() async throws {
        let store = CapturingLogHandler.Store()
        var logger = CapturingLogHandler.logger(store)
        logger.logLevel = .trace
        try await NetworkAuthSupport.withServer({ _ in
            var response = Response.text("marker-body", contentType: "text/plain")
            response.headers[.setCookie] = "session=marker-set-cookie"
            response.headers["X-Upstream-Secret"] = "marker-upstream-secret"
            response.headers[.location] = "/next?token=marker-location"
            return response
        }) { server in
            try await NetworkAuthSupport.withClient(logger: logger) { client in
                let request = HTTPRequest(
                    method: .post,
                    url: server.url("/query?where=1%3D1&token=marker-token-param"),
                    headers: [
                        "Authorization": "Bearer marker-authorization", "X-Esri-Authorization": "Bearer marker-esri",
                        "Cookie": "a=marker-cookie", "X-Api-Key": "marker-apikey",
                    ],
                    body: Array("token=marker-request-body".utf8)
                )
                let response = try await client.execute(request)
                #expect(response.bodyString == "marker-body")
            }
        }
        let lines = store.all
        let text = lines.joined(separator: "\n")
        // Something was logged: the request line (values redacted) and response heads.
        #expect(lines.contains { $0.contains("curl > POST /query?where=<redacted>&token=<redacted> HTTP/1.1") }, "\(text)")
        #expect(lines.contains { $0.contains("curl > Authorization: <redacted>") })
        #expect(lines.contains { $0.contains("curl < Set-Cookie: <redacted>") })
        #expect(lines.contains { $0.contains("curl < Content-Type: text/plain") })
        for marker in Self.markers {
            #expect(!text.contains(marker), "\(marker) leaked")
        }
    }

    @Test("Basic and Digest challenge rounds against real servers log no password or Authorization value",
          .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func challengeRoundsRedacted() async throws {
        let store = CapturingLogHandler.Store()
        var logger = CapturingLogHandler.logger(store)
        logger.logLevel = .trace
        try await NginxAuthServer.with { nginx in
            let rule = HTTPCredentialRule(match: .origin(nginx.httpOrigin), authentication: HTTPAuthentication(
                scheme: .basic, username: NginxAuthServer.basicUser, password: NginxAuthServer.basicPassword))
            try await NetworkAuthSupport.withClient(logger: logger) { client in
                let status = try await client.execute(NetworkAuthSupport.request(nginx.basicFileURL, rule)).status
                #expect(status == 200)
            }
        }
        let text = store.all.joined(separator: "\n")
        let basic = Array("\(NginxAuthServer.basicUser):\(NginxAuthServer.basicPassword)".utf8)
        #expect(text.contains("Authorization: <redacted>"), "\(text)")
        #expect(!text.contains(NginxAuthServer.basicPassword))
        #expect(!text.contains(Data(basic).base64EncodedString()))
        #expect(!text.contains(NginxAuthServer.basicBody.trimmingCharacters(in: .newlines)))
    }

    @Test("Over HTTP/2 (libcurl logs request headers as text there) no header secret or query value is logged",
          .enabled(if: NginxAuthServer.isAvailable, "nginx and openssl are needed (scripts/setup-deps installs them)"))
    func http2Redacted() async throws {
        let store = CapturingLogHandler.Store()
        var logger = CapturingLogHandler.logger(store)
        logger.logLevel = .trace
        try await NginxAuthServer.with { nginx in
            let rule = HTTPCredentialRule(match: .origin(nginx.httpsOrigin), caBundlePath: nginx.certificates.caCertificate)
            try await NetworkAuthSupport.withClient(logger: logger) { client in
                var request = NetworkAuthSupport.request(nginx.tlsFileURL + "?token=marker-h2-query", rule)
                request.headers = ["Authorization": "Bearer marker-h2-authorization", "X-Esri-Authorization": "Bearer marker-h2-esri"]
                let response = try await client.execute(request)
                #expect(response.status == 200)
                #expect(response.httpVersion == "2")
            }
        }
        let text = store.all.joined(separator: "\n")
        #expect(text.contains("<redacted>"), "\(text)")
        #expect(!text.contains("marker-h2"), "\(text)")
    }

    @Test("Below .trace nothing of libcurl's verbose output is logged")
    func quietBelowTrace() async throws {
        let store = CapturingLogHandler.Store()
        var logger = CapturingLogHandler.logger(store)
        logger.logLevel = .debug
        try await NetworkAuthSupport.withServer({ _ in .text("ok") }) { server in
            try await NetworkAuthSupport.withClient(logger: logger) { client in
                let status = try await client.execute(HTTPRequest(url: server.url("/"))).status
                #expect(status == 200)
            }
        }
        #expect(!store.all.contains { $0.contains("curl ") })
    }

    @Test("Redaction of single lines", arguments: [
        ("GET /a?b=c&d=e HTTP/1.1", "GET /a?b=<redacted>&d=<redacted> HTTP/1.1"),
        ("Proxy-Authorization: Basic abc", "Proxy-Authorization: <redacted>"),
        ("x-my-secret-thing: v", "x-my-secret-thing: <redacted>"),
        ("X-Auth-Token:v", "X-Auth-Token: <redacted>"),
        ("h2h3 [authorization: Bearer abc]", "h2h3 [authorization: <redacted>]"),
        ("[HTTP/2] [1] [x-esri-authorization: Bearer abc]", "[HTTP/2] [1] [x-esri-authorization: <redacted>]"),
        ("Authorization: Bearer [abc: def]", "Authorization: <redacted>"),
        ("Set-Cookie: a=b; Path=/", "Set-Cookie: <redacted>"),
        ("h2h3 [:path: /q?token=abc]", "h2h3 [:path: /q?token=<redacted>]"),
        ("Issue another request to this URL: 'http://h/p?k=v&flag'", "Issue another request to this URL: 'http://h/p?k=<redacted>&flag'"),
        ("Host: 127.0.0.1:8080", "Host: 127.0.0.1:8080"),
        ("  Trying 127.0.0.1:8080...", "  Trying 127.0.0.1:8080..."),
    ])
    func redaction(_ line: String, _ expected: String) {
        #expect(CurlVerboseRedaction.redact(line) == expected)
    }
}
