import CurlHTTP
import HTTPTestServer
import Testing
import HTTPTypes
import Hummingbird
import HummingbirdCore

/// Redirects are returned as they are unless asked for, followed only within one origin, and never
/// carry a request (or a credential) to another origin.
@Suite("Redirect policy")
struct RedirectTests {
    /// /start → /next → 200, /loop → /loop, /post → 303 /result.
    private static func redirecting(_ log: RequestLog) -> TestHTTPServer.Handler {
        { request in
            try await log.record(request)
            switch request.uri.path {
            case "/start": return .redirect(to: "/next?from=start", type: .found)
            case "/next": return .text("arrived with \(request.uri.query ?? "")")
            case "/loop": return .redirect(to: "/loop", type: .temporary)
            case "/post": return .redirect(to: "/result", type: .normal)
            case "/result": return .text("\(request.method) result")
            default: return .text("unexpected", status: .notFound)
            }
        }
    }

    @Test("Off by default: a 3xx response is returned as it is")
    func offByDefault() async throws {
        let log = RequestLog()
        try await TestSupport.withServer(Self.redirecting(log)) { server in
            try await TestSupport.withClient { client in
                let response = try await client.execute(HTTPRequest(url: server.url("/start")))
                #expect(response.status == 302)
                #expect(response.headers["Location"] == "/next?from=start")
                #expect(response.url == server.url("/start"))
            }
        }
        #expect(log.all.map(\.path) == ["/start"])
    }

    @Test("sameOrigin follows redirects within the origin, up to the limit")
    func followsWithinOrigin() async throws {
        let log = RequestLog()
        try await TestSupport.withServer(Self.redirecting(log)) { server in
            let configuration = HTTPClientConfiguration(followRedirects: .sameOrigin(maxRedirects: 3))
            try await TestSupport.withClient(configuration) { client in
                let response = try await client.execute(HTTPRequest(url: server.url("/start")))
                #expect(response.status == 200)
                #expect(response.bodyString == "arrived with from=start")
                #expect(response.url == server.url("/next?from=start"))

                let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: server.url("/loop"))) }
                #expect(error?.code == .redirect)
                #expect(error?.message.contains("more than 3 redirects") == true)

                // The request's own policy overrides the client's.
                let unfollowed = try await client.execute(HTTPRequest(url: server.url("/start"), options: HTTPRequestOptions(followRedirects: HTTPRedirectPolicy.never)))
                #expect(unfollowed.status == 302)
            }
        }
        #expect(log.all.map(\.path) == ["/start", "/next", "/loop", "/loop", "/loop", "/loop", "/start"])
    }

    @Test("A 303 after a form POST is followed with a GET that carries no body")
    func seeOtherBecomesGet() async throws {
        let log = RequestLog()
        try await TestSupport.withServer(Self.redirecting(log)) { server in
            try await TestSupport.withClient(HTTPClientConfiguration(followRedirects: .sameOrigin(maxRedirects: 2))) { client in
                let response = try await client.execute(HTTPRequest.formPost(url: server.url("/post"), fields: [("where", "1=1")]))
                #expect(response.bodyString == "GET result")
            }
        }
        let requests = log.all
        #expect(requests.map(\.method) == ["POST", "GET"])
        #expect(requests.last?.body.isEmpty == true)
        #expect(requests.last?.headers["Content-Type"] == nil)
    }

    @Test("A redirect to another origin fails, and neither the request nor its credential reaches it")
    func otherOriginRefused() async throws {
        let firstLog = RequestLog()
        let secondLog = RequestLog()
        try await TestSupport.withServer({ request in
            try await secondLog.record(request)
            return .text("must not be reached")
        }) { second in
            try await TestSupport.withServer({ request in
                try await firstLog.record(request)
                return request.uri.path == "/to-localhost" ? .redirect(to: "http://localhost:\(second.port)/x", type: .found) : .redirect(to: second.url("/stolen"), type: .found)
            }) { first in
                let basic = HTTPAuthentication(scheme: .basic, username: "analyst", password: "s3cret")
                let configuration = HTTPClientConfiguration(
                    followRedirects: .sameOrigin(maxRedirects: 5),
                    credentials: [HTTPCredentialRule(match: .origin(first.baseURL), authentication: basic)]
                )
                try await TestSupport.withClient(configuration) { client in
                    for path in ["/start", "/to-localhost"] {
                        let error = await #expect(throws: HTTPError.self) { try await client.execute(HTTPRequest(url: first.url(path))) }
                        #expect(error?.code == .redirect)
                        #expect(error?.message.contains("another origin") == true)
                    }
                }
                #expect(first.statistics.requestsReceived == 2)
            }
            #expect(second.statistics.connectionsAccepted == 0)
            #expect(second.statistics.requestsReceived == 0)
        }
        // The credential did go to its own origin, so the rule was active.
        #expect(firstLog.all.first?.headers["Authorization"] == "Basic YW5hbHlzdDpzM2NyZXQ=")
        #expect(secondLog.all.isEmpty)
        #expect(!secondLog.all.contains { $0.headers["Authorization"] != nil })
    }
}
