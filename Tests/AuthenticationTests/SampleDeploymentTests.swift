import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import Foundation
import SampleFeatureServer
import Testing

/// Every kind against lane S's secured sample deployment: the tokens obtained are used on its secured
/// services, and its counters show the calls made.
@Suite("ArcGISTokenIssuer against the secured sample server")
struct SampleDeploymentTests {
    static let referer = "https://worker.example.com"
    static let resolver = SecretResolver(environment: [
        "PW": "viewer-password", "WRONG_PW": "wrong", "APP_SECRET": "sample-app-secret", "WRONG_SECRET": "wrong",
    ])

    private func issuer(_ client: HTTPClient) -> ArcGISTokenIssuer {
        ArcGISTokenIssuer(client: client, resolver: Self.resolver, logger: TestSupport.logger)
    }

    private func token(_ deployment: SampleDeployment, password: String = "PW", tokenURL: String? = nil) throws -> Credential {
        var members = #""name":"gis","kind":"token","scope":\#(deployment.scopes),"username":"viewer","password":{"env":"\#(password)"},"#
            + #""referer":"\#(Self.referer)","expirationMinutes":30"#
        if let tokenURL { members += #","tokenUrl":"\#(tokenURL)""# }
        return try TestSupport.credential(members)
    }

    @Test("token: federated servers get exchanged tokens, one audience per server root; the tokens open secured layers")
    func federatedToken() async throws {
        try await SampleDeployment.with { deployment, client in
            let issuer = issuer(client)
            let credential = try token(deployment)
            let federatedLayer = deployment.federated.securedLayerURL(.cities)
            let audience = try await issuer.audience(for: credential, url: federatedLayer)
            #expect(audience.key == deployment.federated.serverRootURL)
            #expect(audience.exchangeForServer == deployment.federated.serverRootURL)
            #expect(audience.tokenServiceURL == deployment.generateTokenURL)
            let issued = try await issuer.issue(credential, for: audience)
            #expect(issued.referer == Self.referer)
            #expect(deployment.authority.counters.generateToken == 1)
            #expect(deployment.authority.counters.exchange == 1)
            let token = issued.grant.token.revealed()
            #expect(try await SampleDeployment.count(client, federatedLayer, token: token, referer: Self.referer) != nil)
            // Its token is for that server only: the portal's own services refuse it.
            let portalLayer = deployment.portal.securedLayerURL(.cities)
            #expect(try await SampleDeployment.count(client, portalLayer, token: token, referer: Self.referer) == nil)

            let portalAudience = try await issuer.audience(for: credential, url: portalLayer)
            #expect(portalAudience.key == deployment.portal.serverRootURL)
            #expect(portalAudience != audience)
            let portalToken = try await issuer.issue(credential, for: portalAudience).grant.token.revealed()
            #expect(try await SampleDeployment.count(client, portalLayer, token: portalToken, referer: Self.referer) != nil)
        }
    }

    @Test("token: a standalone server's own token service; a wrong password is credential_rejected")
    func standaloneToken() async throws {
        try await SampleDeployment.with { deployment, client in
            let issuer = issuer(client)
            let layer = deployment.standalone.securedLayerURL(.cities)
            let credential = try token(deployment)
            let audience = try await issuer.audience(for: credential, url: layer)
            #expect(audience.tokenServiceURL == deployment.standalone.tokenServicesURL)
            #expect(audience.exchangeForServer == nil)
            let issued = try await issuer.issue(credential, for: audience)
            #expect(deployment.authority.counters.serverGenerateToken == 1)
            #expect(try await SampleDeployment.count(client, layer, token: issued.grant.token.revealed(), referer: Self.referer) != nil)
            do {
                _ = try await issuer.issue(try token(deployment, password: "WRONG_PW"), for: audience)
                Issue.record("a wrong password got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
                #expect(!error.isRetryable)
            }
            #expect(deployment.authority.counters.wrongPasswords == 1)
        }
    }

    @Test("token: a server of another portal is not_federated, and no token call is made for it")
    func notFederated() async throws {
        try await SampleDeployment.with { deployment, client in
            let issuer = issuer(client)
            let credential = try token(deployment, tokenURL: deployment.generateTokenURL)
            do {
                _ = try await issuer.audience(for: credential, url: deployment.otherFederated.securedLayerURL(.cities))
                Issue.record("a server of another portal got an audience")
            } catch let error as AuthenticationFailure {
                #expect(error.code == .notFederated)
            }
            #expect(deployment.authority.counters.tokenCalls == 0)
        }
    }

    @Test("oauthApp and oauth2: client_credentials at the portal; a wrong secret is credential_rejected")
    func clientCredentials() async throws {
        try await SampleDeployment.with { deployment, client in
            let issuer = issuer(client)
            let portalLayer = deployment.portal.securedLayerURL(.cities)
            let app = try TestSupport.credential(
                #""name":"app","kind":"oauthApp","scope":\#(deployment.scopes),"portalUrl":"\#(deployment.portalURL)","clientId":"sample-app","clientSecret":{"env":"APP_SECRET"},"expirationMinutes":60"#)
            let audience = try await issuer.audience(for: app, url: portalLayer)
            let issued = try await issuer.issue(app, for: audience)
            #expect(try await SampleDeployment.count(client, portalLayer, token: issued.grant.token.revealed(), referer: nil) != nil)
            #expect(deployment.authority.counters.oauthToken("client_credentials") == 1)

            let generic = try TestSupport.credential(
                #""name":"o2","kind":"oauth2","scope":\#(deployment.scopes),"tokenUrl":"\#(deployment.portalURL)/sharing/rest/oauth2/token","clientId":"sample-app","clientSecret":{"env":"WRONG_SECRET"}"#)
            do {
                _ = try await issuer.issue(generic, for: try await issuer.audience(for: generic, url: portalLayer))
                Issue.record("a wrong client secret got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
            }
        }
    }

    @Test("oauthUser: login end to end, refresh, exchange with write-back, relogin_required, logout")
    func userSession() async throws {
        var knobs = SampleSecurityKnobs()
        // 40 seconds: the steps below are reckoned from the token's own expiry. The first token call must come
        // before the half-life (20 s after the login), the exchange after it and 12 s before the expiry, so a
        // loaded machine (a slow login, a slow token call) cannot push a step over an edge: 6 seconds with 2.5 s
        // margins did under a parallel build, and 16 seconds with 6 s margins in a fresh clone's loaded run.
        knobs.refreshTokenLifetimeSeconds = 40
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/viewer.json"
        let port = try await LoginTests.freePort()
        let redirect = "http://127.0.0.1:\(port)/callback"
        try await SampleDeployment.with(knobs: knobs) { deployment, client in
            deployment.authority.setClient(SampleOAuthClient(clientID: "sample-public-app", clientSecret: nil, redirectURIs: [redirect]))
            let credential = try TestSupport.credential(
                #""name":"me","kind":"oauthUser","scope":\#(deployment.scopes),"portalUrl":"\#(deployment.portalURL)","clientId":"sample-public-app","refreshTokenFile":"\#(file)","redirectUri":"\#(redirect)""#)
            let login = try OAuthLogin(credential: credential, redirectURI: nil, client: client, logger: TestSupport.logger)
            let (task, url) = try await LoginTests.start(login)
            let page = try await LoginTests.approve(url, client: client)
            #expect(page.status == 200)
            let session = try await task.value
            #expect(session.username == "viewer")
            #expect(deployment.authority.counters.authorize == 1)
            #expect(deployment.authority.counters.oauthToken("authorization_code") == 1)
            let first = try RefreshTokenFile.read(path: file)
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)

            let issuer = issuer(client)
            let layer = deployment.portal.securedLayerURL(.cities)
            let audience = try await issuer.audience(for: credential, url: layer)
            let issued = try await issuer.issue(credential, for: audience)
            #expect(try await SampleDeployment.count(client, layer, token: issued.grant.token.revealed(), referer: nil) != nil)
            #expect(deployment.authority.counters.oauthToken("refresh_token") == 1)
            #expect(try RefreshTokenFile.read(path: file) == first)

            // Past half its 40-second life (28 s in, 12 s left): exchanged, written back, the old one dead. The
            // waits are reckoned from the token's own expiry (not from now), so a slow login does not eat the margin.
            try await Self.sleep(until: (first.expiresAtMilliseconds ?? 0) - 12_000)
            _ = try await issuer.issue(credential, for: audience)
            #expect(deployment.authority.counters.oauthToken("exchange_refresh_token") == 1)
            #expect(deployment.authority.counters.oauthToken("refresh_token") == 1)  // the exchange's access token was used
            let second = try RefreshTokenFile.read(path: file)
            #expect(second.refreshToken != first.refreshToken)
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["viewer.json"])

            // Past its whole life: only a new login helps.
            try await Self.sleep(until: (second.expiresAtMilliseconds ?? 0) + 200)
            do {
                _ = try await issuer.issue(credential, for: audience)
                Issue.record("an expired refresh token gave a token")
            } catch let error as TokenFailure {
                #expect(error.code == .reloginRequired)
            }

            #expect(try await issuer.logOut(credential))
            #expect(deployment.authority.counters.revoke == 1)
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("oauthUser: a revoked refresh token is relogin_required; a declined sign-in stores nothing")
    func revokedAndDeclined() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/viewer.json"
        let port = try await LoginTests.freePort()
        let redirect = "http://127.0.0.1:\(port)/callback"
        try await SampleDeployment.with { deployment, client in
            deployment.authority.setClient(SampleOAuthClient(clientID: "sample-public-app", clientSecret: nil, redirectURIs: [redirect]))
            let credential = try TestSupport.credential(
                #""name":"me","kind":"oauthUser","scope":\#(deployment.scopes),"portalUrl":"\#(deployment.portalURL)","clientId":"sample-public-app","refreshTokenFile":"\#(file)","redirectUri":"\#(redirect)""#)
            let declined = try OAuthLogin(credential: credential, redirectURI: nil, client: client, logger: TestSupport.logger)
            let (declinedTask, declinedURL) = try await LoginTests.start(declined)
            _ = try await LoginTests.approve(declinedURL + "&deny=true", client: client)
            do {
                _ = try await declinedTask.value
                Issue.record("a declined sign-in succeeded")
            } catch let error as OAuthSessionFailure {
                #expect(error.code == .denied)
            }
            #expect(!FileManager.default.fileExists(atPath: file))

            let login = try OAuthLogin(credential: credential, redirectURI: nil, client: client, logger: TestSupport.logger)
            let (task, url) = try await LoginTests.start(login)
            _ = try await LoginTests.approve(url, client: client)
            _ = try await task.value
            deployment.authority.revokeAllTokens(includingRefreshTokens: true)
            let issuer = issuer(client)
            do {
                _ = try await issuer.issue(credential, for: try await issuer.audience(for: credential, url: deployment.portal.securedLayerURL(.cities)))
                Issue.record("a revoked refresh token gave a token")
            } catch let error as TokenFailure {
                #expect(error.code == .reloginRequired)
            }
        }
    }

    /// Sleeps until the wall clock reads `milliseconds` since the epoch (at once when it is past).
    static func sleep(until milliseconds: Int64) async throws {
        let left = milliseconds - WallClock.nowMilliseconds()
        if left > 0 { try await Task.sleep(for: .milliseconds(left)) }
    }
}

