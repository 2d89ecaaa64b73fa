import EngineTestSupport
import CurlHTTP
import EngineExecution
import FeatureService
import HTTPTestServer
import Hummingbird
import Synchronization
import Testing

@testable import OGCEngine
import Logging

/// The OGC engine sends what the worker's credentials say on every request (landing page, conformance,
/// collections, queryables, every items page and `next` link) and handles 401 and 403 as the credentials documentation says.
@Suite("OGC credentials")
struct CredentialTests {
    static let ids = ServiceQuery(result: .ids)
    static let header = "X-Esri-Authorization"

    /// 25 features in pages of 10 linked by `?page=N` `next` links, answering 401 to a request without the
    /// current token when `requireToken` says so.
    static func pagedItems(requireToken: @escaping @Sendable (Request) -> Bool = { _ in false }) -> OGCTestServer.Items {
        { request in
            if requireToken(request) { return .json(#"{"code":"Unauthorized","description":"token required"}"#, status: 401) }
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            let start = page * 10 + 1
            let end = min(25, start + 9)
            let features = (start...end).map { OGCTestServer.feature(id: "\($0)") }
            return .json(OGCTestServer.page(features, next: end < 25 ? "?page=\(page + 1)" : nil, numberMatched: 25))
        }
    }

    static let allIDs = (1...25).map { FeatureID.integer(Int64($0)) }

    @Test func theTokenIsOnEveryRequestIncludingNextLinks() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems())
        let authenticator = TestAuthenticator()
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == Self.allIDs)
        let requests = server.requests
        #expect(server.itemRequests.count == 3)
        #expect(requests.contains { $0.uri.path == "/ogc" } && requests.contains { $0.uri.path == "/ogc/collections" })
        #expect(requests.allSatisfy { $0.headers[Self.header] == "Bearer " + TestAuthenticator.token(1) })
        #expect(authenticator.snapshot.asked.count >= requests.count)
    }

    @Test func anAPIKeyParameterReplacesAnEchoAndIsRedacted() async throws {
        // Every page links back to the first with the key echoed: a cycle, whose error names the link.
        let server = try await OGCTestServer.start { request in
            .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], next: "?apikey=\(TestAuthenticator.token(1))&page=0"))
        }
        let authenticator = TestAuthenticator(parameter: "apikey")
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        let error = try #require(outcome.failure)
        #expect(error.code == .pagingCycle)
        #expect(!error.message.contains(TestAuthenticator.token(1)))
        #expect(error.message.contains("apikey=<redacted>"))
        // The key went on every request, once.
        #expect(server.requests.allSatisfy { request in
            request.queryItems.filter { $0.name == "apikey" }.map(\.value) == [TestAuthenticator.token(1)]
        })
    }

    @Test func debugLogsAndRetriesNeverShowAnAPIKeyParameter() async throws {
        let failedOnce = Mutex(false)
        let server = try await OGCTestServer.start(items: { request in
            if !failedOnce.withLock({ done in defer { done = true }; return done }) {
                return .json(#"{"code":"Unavailable","description":"busy"}"#, status: 503)
            }
            return try await Self.pagedItems()(request)
        })
        var (logger, logs) = CapturedLogs.logger()
        logger.logLevel = .debug
        let authenticator = TestAuthenticator(parameter: "apikey")
        let outcome = try await server.withEngine(logger: logger, authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == Self.allIDs)
        let lines = logs.all.map { "\($0.message) \($0.metadata)" }
        #expect(lines.contains { $0.contains("apikey=<redacted>") })
        #expect(lines.contains { $0.contains("retrying") })
        #expect(!lines.contains { $0.contains(TestAuthenticator.token(1)) })
    }

    @Test func a401WithNothingSentIsAuthenticationRequired() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems { _ in true })
        let outcome = try await server.withEngine { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code.rawValue == "authentication_required")
        #expect(outcome.failure?.httpStatus == 401)
    }

    @Test func a401ToAnAPIKeyIsExpired() async throws {
        let server = try await OGCTestServer.start(items: Self.pagedItems { _ in true })
        let authenticator = TestAuthenticator(name: "ogc-key", refreshable: false)
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code.rawValue == "credential_expired")
        #expect(authenticator.snapshot.rejectedCalls == 1)
        #expect(server.itemRequests.count == 1)
    }

    @Test func a401MidChainRetriesOnlyThatPage() async throws {
        let refusedOnce = Mutex(false)
        let server = try await OGCTestServer.start(items: Self.pagedItems { request in
            let second = request.queryItems.contains { $0.name == "page" && $0.value == "1" }
            return second && refusedOnce.withLock { done in
                defer { done = true }
                return !done
            }
        })
        let authenticator = TestAuthenticator()
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == Self.allIDs)
        let pages = server.itemRequests.map { $0.queryItems.first { $0.name == "page" }?.value ?? "first" }
        #expect(pages == ["first", "1", "1", "2"])
        #expect(server.itemRequests.map { $0.headers[Self.header] } == [1, 1, 2, 2].map { "Bearer " + TestAuthenticator.token($0) })
        #expect(authenticator.snapshot.rejectedCalls == 1 && authenticator.snapshot.minted == 1)
    }

    @Test func forbiddenIsNeverRefreshed() async throws {
        let server = try await OGCTestServer.start { _ in .json(#"{"code":"Forbidden"}"#, status: 403) }
        let authenticator = TestAuthenticator()
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.failure?.code == .forbidden)
        #expect(authenticator.snapshot.rejectedCalls == 0)
    }

    @Test func aRedirectIsFollowedWithCredentialsAskedForTheNewURL() async throws {
        let server = try await OGCTestServer.start { request in
            if request.uri.query?.contains("moved") != true { return .redirect(to: "/ogc/collections/things/items?moved=1", type: .found) }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")]))
        }
        let authenticator = TestAuthenticator()
        let outcome = try await server.withEngine(authenticator: authenticator) { await server.query($0, Self.ids) }
        #expect(outcome.success?.featureIds == [.integer(1)])
        #expect(server.itemRequests.count == 2)
        #expect(server.itemRequests.allSatisfy { $0.headers[Self.header] != nil })
        #expect(authenticator.snapshot.asked.contains { $0.contains("moved=1") })
    }

    /// HTTP authentication is a network rule libcurl applies for the URL's origin: it is on every request,
    /// and a 401 to it is rejected without asking for a token.
    @Test func aNetworkRuleIsAppliedAndA401ToItIsRejected() async throws {
        let refuse = Mutex(false)
        let server = try await OGCTestServer.start { _ in
            if refuse.withLock({ $0 }) { return .json(#"{"code":"Unauthorized"}"#, status: 401) }
            return .json(OGCTestServer.page([OGCTestServer.feature(id: "1")]))
        }
        let authenticator = NetworkAuthenticator(origin: server.http.url(""))
        let expected = "Basic " + Self.base64("worker:pa55word")
        try await server.withEngine(authenticator: authenticator) { engine in
            let first = await server.query(engine, Self.ids)
            #expect(first.success?.featureIds == [.integer(1)])
            #expect(server.requests.allSatisfy { $0.headers["Authorization"] == expected })
            refuse.withLock { $0 = true }
            let second = await server.query(engine, Self.ids)
            #expect(second.failure?.code.rawValue == "credential_rejected")
            #expect(second.failure?.message.contains("\"basic\"") == true)
            #expect(second.failure?.message.contains("pa55word") == false)
        }
    }

    static func base64(_ text: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        let bytes = Array(text.utf8)
        var output = ""
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = Array(bytes[start..<min(start + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for index in 0..<4 {
                output.append(index <= chunk.count ? alphabet[(value >> (18 - 6 * index)) & 63] : "=")
            }
        }
        return output
    }

    @Test func theCredentialCodesAreTheSeamsCodes() {
        for code in FeatureServiceError.Code.credentialCodes {
            #expect(FeatureServiceError.Code.layerCodes.contains(code), "\(code)")
        }
        // Every code the authenticator can throw is one a layer may carry.
        let failures: [AuthenticationFailure.Code] = [
            .authenticationRequired, .credentialRejected, .credentialExpired, .reloginRequired, .notFederated,
            .insecureTransport, .tokenServiceUnavailable, .unknownCredential, .credentialUnavailable, .credentialScopeMismatch,
        ]
        #expect(failures.map(\.rawValue) == FeatureServiceError.Code.credentialCodes.map(\.rawValue))
    }
}

/// HTTP Basic authentication for one origin, as the worker's `password` credential is applied: a network rule,
/// no token.
struct NetworkAuthenticator: RequestAuthenticator {
    let origin: String

    func authentication(for url: String, credential: String?) async throws -> AppliedAuthentication {
        let rule = HTTPCredentialRule(
            match: .origin(origin), authentication: HTTPAuthentication(scheme: .basic, username: "worker", password: "pa55word"))
        return AppliedAuthentication(network: rule, cacheIdentity: "basic")
    }

    func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential: String?
    ) async throws -> AppliedAuthentication? {
        Issue.record("a 401 to HTTP authentication must not ask for a token")
        return nil
    }
}
