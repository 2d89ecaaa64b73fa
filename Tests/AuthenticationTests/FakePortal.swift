import Authentication
import FeatureQuerySupport
import Foundation
import HTTPTestServer
import Hummingbird
import Logging
import Synchronization

/// A small ArcGIS deployment on one loopback port, for the token calls: a portal (`/portal/sharing/rest`:
/// generateToken with passwords and with token + serverUrl, oauth2/token with every grant, oauth2/authorize
/// approving at once, oauth2/revokeToken), two federated servers (`/fed`, `/fed2`), a server federated with
/// another portal (`/other`), a standalone server (`/standalone`), a server naming a token service outside
/// the credentials' scopes (`/rogue`), a failing one (`/down`), and a plain OAuth 2.0 endpoint (`/oauth/token`).
/// Counts every call by path.
final class FakePortal: Sendable {
    static let username = "analyst"
    static let password = "pw-marker-7f3a"
    static let appID = "app-1"
    static let appSecret = "app-secret-marker-91c2"
    static let userClientID = "user-app"
    static let oauth2Client = "svc"
    static let oauth2Secret = "o2-secret-marker-55d1"

    struct State {
        var calls: [String: Int] = [:]
        var issued = 0
        var portalTokens: Set<String> = []
        var exchanges: [String] = []
        var referers: [String] = []
        var scopes: [String] = []
        var codes: [String: (challenge: String, redirect: String)] = [:]
        var refreshTokens: [String: Int64] = [:]  // token → expiry (Unix ms)
        var revoked: [String] = []
        var exchangeRedirects: [String] = []
        /// Knobs.
        var refreshTokenLifetimeSeconds: Int64 = 14 * 86_400
        var requiresTLS = false
        var exchangeFails = false
    }

    let server: TestHTTPServer
    private let state = Mutex(State())

    private init(server: TestHTTPServer) { self.server = server }

    static func start() async throws -> FakePortal {
        let box = Box()
        let server = try await TestHTTPServer.start(logger: TestSupport.logger) { request in
            guard let portal = box.portal else { return .text("starting", status: 503) }
            return try await portal.handle(request)
        }
        let portal = FakePortal(server: server)
        box.portal = portal
        return portal
    }

    var base: String { server.baseURL }
    var portalURL: String { base + "/portal" }
    var generateTokenURL: String { portalURL + "/sharing/rest/generateToken" }

    func calls(_ path: String) -> Int { state.withLock { $0.calls[path] ?? 0 } }
    var snapshot: State { state.withLock { $0 } }
    func configure(_ change: (inout State) -> Void) { state.withLock { change(&$0) } }

    // MARK: Handling

    private func handle(_ request: Request) async throws -> Response {
        let path = request.uri.path
        state.withLock { $0.calls[path, default: 0] += 1 }
        let parameters = try await request.parameters()
        let p = { (name: String) in parameters.value(name) }
        switch path {
        case "/portal/sharing/rest/generateToken": return generateToken(p, prefix: "portal", server: true)
        case "/standalone/tokens/generateToken": return generateToken(p, prefix: "standalone", server: false)
        case "/collector/generateToken": return .json(#"{"token":"collected","expires":1}"#)
        case "/portal/sharing/rest/oauth2/token": return oauthToken(p)
        case "/portal/sharing/rest/oauth2/authorize": return authorize(p)
        case "/portal/sharing/rest/oauth2/revokeToken":
            state.withLock { $0.revoked.append(p("auth_token") ?? "") }
            return .json(#"{"success":true}"#)
        case "/oauth/token": return genericToken(p)
        case "/fed/rest/info", "/fed2/rest/info":
            return .json(#"{"currentVersion":11.3,"owningSystemUrl":"\#(portalURL)","authInfo":{"isTokenBasedSecurity":true,"tokenServicesUrl":"\#(generateTokenURL)"}}"#)
        case "/other/rest/info":
            return .json(#"{"currentVersion":11.3,"owningSystemUrl":"https://other-portal.example.com/portal","authInfo":{"isTokenBasedSecurity":true,"tokenServicesUrl":"https://other-portal.example.com/portal/sharing/rest/generateToken"}}"#)
        case "/standalone/rest/info":
            return .json(#"{"currentVersion":11.3,"authInfo":{"isTokenBasedSecurity":true,"tokenServicesUrl":"\#(base)/standalone/tokens/generateToken"}}"#)
        case "/rogue/rest/info":
            return .json(#"{"currentVersion":11.3,"authInfo":{"isTokenBasedSecurity":true,"tokenServicesUrl":"\#(base)/collector/generateToken"}}"#)
        case "/down/rest/info": return .text("down", status: 503)
        default: return .text("not found", status: 404)
        }
    }

    private func nextToken(_ prefix: String) -> String {
        state.withLock { state in
            state.issued += 1
            return "\(prefix)-\(state.issued)"
        }
    }

    private func generateToken(_ p: (String) -> String?, prefix: String, server: Bool) -> Response {
        let ssl = state.withLock { $0.requiresTLS }
        let expires = WallClock.nowMilliseconds() + Int64(p("expiration").flatMap(Int.init) ?? 60) * 60_000
        if server, let portalToken = p("token") {
            guard state.withLock({ $0.portalTokens.contains(portalToken) }), let serverURL = p("serverUrl") else {
                return .json(#"{"error":{"code":498,"message":"Invalid token.","details":[]}}"#)
            }
            let token = nextToken("server")
            state.withLock { $0.exchanges.append(serverURL) }
            return .json(#"{"token":"\#(token)","expires":\#(expires),"ssl":\#(ssl)}"#)
        }
        guard p("username") == Self.username, p("password") == Self.password, p("client") == "referer", let referer = p("referer") else {
            return .json(#"{"error":{"code":400,"message":"Unable to generate token.","details":["Invalid username or password."]}}"#)
        }
        let token = nextToken(prefix)
        state.withLock { state in
            state.referers.append(referer)
            if server { state.portalTokens.insert(token) }
        }
        return .json(#"{"token":"\#(token)","expires":\#(expires),"ssl":\#(ssl)}"#)
    }

    private func authorize(_ p: (String) -> String?) -> Response {
        guard let redirect = p("redirect_uri"), let state = p("state"), p("response_type") == "code",
            p("code_challenge_method") == "S256", let challenge = p("code_challenge")
        else { return .text("bad authorize request", status: 400) }
        guard p("client_id") == Self.userClientID else {
            return .redirect(to: "\(redirect)?error=access_denied&state=\(state)", type: .found)
        }
        let code = nextToken("code")
        self.state.withLock { $0.codes[code] = (challenge, redirect) }
        return .redirect(to: "\(redirect)?code=\(code)&state=\(state)", type: .found)
    }

    private func oauthError(_ code: Int, _ name: String) -> Response {
        .json(#"{"error":{"code":\#(code),"error":"\#(name)","error_description":"marker-description","message":"marker-message","details":[]}}"#)
    }

    private func issueRefreshToken() -> (String, Int64) {
        let token = nextToken("rt")
        let lifetime = state.withLock { $0.refreshTokenLifetimeSeconds }
        state.withLock { $0.refreshTokens[token] = WallClock.nowMilliseconds() + lifetime * 1000 }
        return (token, lifetime)
    }

    private func oauthToken(_ p: (String) -> String?) -> Response {
        switch p("grant_type") {
        case "client_credentials":
            guard p("client_id") == Self.appID, p("client_secret") == Self.appSecret else { return oauthError(400, "invalid_client") }
            let minutes = Int64(p("expiration").flatMap(Int.init) ?? 120)
            return .json(#"{"access_token":"\#(nextToken("app"))","expires_in":\#(minutes * 60)}"#)
        case "authorization_code":
            guard p("client_id") == Self.userClientID, let code = p("code"), let verifier = p("code_verifier"),
                let stored = state.withLock({ $0.codes.removeValue(forKey: code) }),
                stored.redirect == p("redirect_uri"), PKCE.challenge(for: verifier) == stored.challenge
            else { return oauthError(400, "invalid_grant") }
            let (refresh, lifetime) = issueRefreshToken()
            return .json(#"{"access_token":"\#(nextToken("user"))","expires_in":1800,"refresh_token":"\#(refresh)","refresh_token_expires_in":\#(lifetime),"username":"\#(Self.username)"}"#)
        case "refresh_token", "exchange_refresh_token":
            guard p("client_id") == Self.userClientID else { return oauthError(400, "invalid_client") }
            let now = WallClock.nowMilliseconds()
            guard let refresh = p("refresh_token"),
                let expiry = state.withLock({ state in state.revoked.contains(refresh) ? nil : state.refreshTokens[refresh] }),
                expiry > now
            else { return oauthError(498, "invalid_request") }
            guard p("grant_type") == "exchange_refresh_token" else {
                return .json(#"{"access_token":"\#(nextToken("user"))","expires_in":1800,"username":"\#(Self.username)"}"#)
            }
            if state.withLock({ $0.exchangeFails }) { return .text("exchange down", status: 503) }
            state.withLock { $0.exchangeRedirects.append(p("redirect_uri") ?? "") }
            let (renewed, lifetime) = issueRefreshToken()
            return .json(#"{"access_token":"\#(nextToken("user"))","expires_in":1800,"refresh_token":"\#(renewed)","refresh_token_expires_in":\#(lifetime),"username":"\#(Self.username)"}"#)
        default:
            return oauthError(400, "unsupported_grant_type")
        }
    }

    private func genericToken(_ p: (String) -> String?) -> Response {
        guard p("grant_type") == "client_credentials", p("client_id") == Self.oauth2Client, p("client_secret") == Self.oauth2Secret else {
            return .json(#"{"error":"invalid_client","error_description":"marker-description"}"#, status: 401)
        }
        state.withLock { $0.scopes.append(p("scope") ?? "") }
        return .json(#"{"access_token":"\#(nextToken("o2"))","token_type":"Bearer","expires_in":3600}"#)
    }

    func shutdown() async { await server.stop() }

    /// Lets the handler reach the portal made after the server it belongs to.
    private final class Box: Sendable {
        private let lock = Mutex<FakePortal?>(nil)
        var portal: FakePortal? {
            get { lock.withLock { $0 } }
            set { lock.withLock { $0 = newValue } }
        }
    }
}
