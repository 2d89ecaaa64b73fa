import CurlHTTP
import HTTPTestServer
import Testing
import HTTPTypes
import Foundation

/// Bad input fails before any byte is sent, with an error that names what is wrong.
@Suite("Invalid requests and credentials fail before sending")
struct InvalidRequestTests {
    private static let unreachable: TestHTTPServer.Handler = { _ in .text("must not be reached", status: .internalServerError) }

    @Test("Malformed URLs are refused", arguments: [
        "not a url",
        "http://127.0.0.1:PORT/with space",
        "http:///no-host",
        "http://127.0.0.1:PORT/\u{0}nul",
        "127.0.0.1:PORT/no-scheme",
        "http://127.0.0.1:99999/port-out-of-range",
    ])
    func malformedURL(_ template: String) async throws {
        try await TestSupport.withServer(Self.unreachable) { server in
            try await TestSupport.withClient { client in
                let url = template.replacingOccurrences(of: "PORT", with: String(server.port))
                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: url)) }
                #expect(error?.code == .invalidRequest)
                #expect(error?.isRetryable == false)
                #expect(error?.curlCode == nil)
            }
            #expect(server.statistics.connectionsAccepted == 0)
        }
    }

    @Test("Only http and https are accepted")
    func unsupportedScheme() async throws {
        try await TestSupport.withServer(Self.unreachable) { server in
            try await TestSupport.withClient { client in
                for url in ["ftp://127.0.0.1:\(server.port)/file", "file:///etc/passwd", "gopher://127.0.0.1:\(server.port)/"] {
                    let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: url)) }
                    #expect(error?.code == .invalidRequest)
                    #expect(error?.message.contains("not supported") == true)
                }
            }
            #expect(server.statistics.connectionsAccepted == 0)
        }
    }

    @Test("Header injection and malformed header names or methods are refused")
    func badHeadersAndMethods() async throws {
        try await TestSupport.withServer(Self.unreachable) { server in
            try await TestSupport.withClient { client in
                let url = server.url("/")
                let requests = [
                    HTTPRequest(url: url, headers: ["X-Token": "abc\r\nX-Injected: yes"]),
                    HTTPRequest(url: url, headers: ["X-Token": "abc\nX-Injected: yes"]),
                    HTTPRequest(url: url, headers: ["Bad Header": "value"]),
                    HTTPRequest(url: url, headers: ["X-Bad:Name": "value"]),
                    HTTPRequest(url: url, headers: ["": "value"]),
                    HTTPRequest(method: .init("GE T"), url: url),
                    HTTPRequest(method: .init(""), url: url),
                ]
                for request in requests {
                    let error = await #expect(throws: HTTPError.self) { try await client.execute(request) }
                    #expect(error?.code == .invalidRequest)
                }
                let injected = await #expect(throws: HTTPError.self) { try await client.execute(requests[0]) }
                #expect(injected?.message.contains("X-Token") == true)
            }
            #expect(server.statistics.connectionsAccepted == 0)
            #expect(server.statistics.requestsReceived == 0)
        }
    }

    @Test("A credential file that can't be read fails client creation, naming the file")
    func unreadableCredentialFile() async throws {
        try await TestSupport.withServer(Self.unreachable) { server in
            let origin = HTTPCredentialRule.Match.origin(server.baseURL)
            let cases: [(HTTPCredentialRule, String)] = [
                (HTTPCredentialRule(match: origin, caBundlePath: "/nonexistent/ca-bundle.pem"), "/nonexistent/ca-bundle.pem"),
                (HTTPCredentialRule(match: origin, clientCertificate: .pem(certificatePath: "/nonexistent/client.pem", keyPath: "/etc/hostname", passphrase: nil)), "/nonexistent/client.pem"),
                (HTTPCredentialRule(match: origin, clientCertificate: .pem(certificatePath: "/etc/hostname", keyPath: "/nonexistent/client.key", passphrase: "x")), "/nonexistent/client.key"),
                (HTTPCredentialRule(match: origin, clientCertificate: .pkcs12(path: "/nonexistent/client.p12", password: "x")), "/nonexistent/client.p12"),
            ]
            for (rule, path) in cases {
                let error = #expect(throws: HTTPError.self) {
                    _ = try HTTPClient(configuration: HTTPClientConfiguration(credentials: [rule]), logger: TestSupport.logger)
                }
                #expect(error?.code == .credential)
                #expect(error?.message.contains(path) == true)
            }
            #expect(server.statistics.connectionsAccepted == 0)
        }
    }
}
