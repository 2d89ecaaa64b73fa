import Authentication
import Credentials
import FeatureQuerySupport
import Foundation
import Testing

/// `oauthApp`, `oauth2` and `oauthUser` against the fake portal and OAuth endpoint.
@Suite("ArcGISTokenIssuer: OAuth kinds")
struct OAuthIssuerTests {
    @Test("oauthApp: client_credentials at the portal's oauth2/token; a wrong secret is credential_rejected")
    func application() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            func app(_ secret: String) throws -> Credential {
                try TestSupport.credential(
                    #""name":"app","kind":"oauthApp","scope":"\#(portal.base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(FakePortal.appID)","clientSecret":{"env":"\#(secret)"},"expirationMinutes":90"#)
            }
            let credential = try app("APP_SECRET")
            let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            #expect(audience.tokenServiceURL == portal.portalURL + "/sharing/rest/oauth2/token")
            let issued = try await issuer.issue(credential, for: audience)
            #expect(issued.grant.token.revealed().hasPrefix("app-"))
            #expect(issued.grant.requestedLifetime == .seconds(90 * 60))
            let expiry = try #require(issued.grant.serverExpiry)
            #expect(expiry > .now + .seconds(5300) && expiry <= .now + .seconds(5400))
            do {
                _ = try await issuer.issue(try app("WRONG_SECRET"), for: audience)
                Issue.record("a wrong client secret got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
                #expect(!error.message.contains("marker-message"))
            }
        }
    }

    @Test("oauth2: client_credentials with scope at any endpoint; invalid_client is credential_rejected")
    func genericOAuth2() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            func credential(_ secret: String) throws -> Credential {
                try TestSupport.credential(
                    #""name":"idp","kind":"oauth2","scope":"\#(portal.base)","tokenUrl":"\#(portal.base)/oauth/token","clientId":"\#(FakePortal.oauth2Client)","clientSecret":{"env":"\#(secret)"},"oauthScope":"features.read""#)
            }
            let good = try credential("O2_SECRET")
            let audience = try await issuer.audience(for: good, url: portal.base + "/ogc/collections")
            #expect(audience.key == portal.base + "/oauth/token")
            let issued = try await issuer.issue(good, for: audience)
            #expect(issued.grant.token.revealed().hasPrefix("o2-"))
            #expect(issued.referer == nil)
            #expect(portal.snapshot.scopes == ["features.read"])
            do {
                _ = try await issuer.issue(try credential("WRONG_SECRET"), for: audience)
                Issue.record("an invalid client got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
                #expect(!error.isRetryable)
                #expect(!error.message.contains("marker-description"))
            }
        }
    }

    private func userCredential(_ portal: FakePortal, file: String) throws -> Credential {
        try TestSupport.credential(
            #""name":"me","kind":"oauthUser","scope":"\#(portal.base)","portalUrl":"\#(portal.portalURL)","clientId":"\#(FakePortal.userClientID)","refreshTokenFile":"\#(file)","redirectUri":"http://127.0.0.1:7890/callback""#)
    }

    /// A refresh token the fake portal knows, as `login` would have stored it.
    private func signIn(_ portal: FakePortal, file: String, issuedAgo: Int64, lifetime: Int64) throws {
        let now = WallClock.nowMilliseconds()
        let token = "rt-seeded-\(UUID().uuidString)"
        portal.configure { $0.refreshTokens[token] = now - issuedAgo + lifetime }
        try RefreshTokenFile(refreshToken: Secret(token), issuedAtMilliseconds: now - issuedAgo, expiresAtMilliseconds: now - issuedAgo + lifetime)
            .write(path: file)
    }

    @Test("oauthUser: refresh_token grant while the refresh token is young; the file is left as it was")
    func userRefresh() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        try await TestSupport.withPortal { portal, client in
            try signIn(portal, file: file, issuedAgo: 1_000, lifetime: 14 * 86_400_000)
            let before = try String(contentsOfFile: file, encoding: .utf8)
            let issuer = TestSupport.issuer(client)
            let credential = try userCredential(portal, file: file)
            let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            let issued = try await issuer.issue(credential, for: audience)
            #expect(issued.grant.token.revealed().hasPrefix("user-"))
            #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
            #expect(portal.snapshot.exchangeRedirects.isEmpty)
        }
    }

    @Test("oauthUser: past half its life the refresh token is exchanged and the new one written back (0600, replaced)")
    func userExchange() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        try await TestSupport.withPortal { portal, client in
            try signIn(portal, file: file, issuedAgo: 10 * 86_400_000, lifetime: 14 * 86_400_000)
            let old = try RefreshTokenFile.read(path: file).refreshToken
            let issuer = TestSupport.issuer(client)
            let credential = try userCredential(portal, file: file)
            let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            let issued = try await issuer.issue(credential, for: audience)
            #expect(issued.grant.token.revealed().hasPrefix("user-"))
            let renewed = try RefreshTokenFile.read(path: file)
            #expect(renewed.refreshToken != old)
            #expect(renewed.refreshToken.revealed().hasPrefix("rt-"))
            #expect(!renewed.isDueForExchange(nowMilliseconds: WallClock.nowMilliseconds()))
            #expect((try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int) == 0o600)
            #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains(old.revealed()))
            #expect(portal.snapshot.exchangeRedirects == ["http://127.0.0.1:7890/callback"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["me.json"])
        }
    }

    @Test("oauthUser: an exchange that fails for a retryable reason falls back to refreshing with the current token")
    func exchangeOutage() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        try await TestSupport.withPortal { portal, client in
            try signIn(portal, file: file, issuedAgo: 10 * 86_400_000, lifetime: 14 * 86_400_000)
            let before = try RefreshTokenFile.read(path: file)
            portal.configure { $0.exchangeFails = true }
            let issuer = TestSupport.issuer(client)
            let credential = try userCredential(portal, file: file)
            let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            #expect(try await issuer.issue(credential, for: audience).grant.token.revealed().hasPrefix("user-"))
            #expect(try RefreshTokenFile.read(path: file) == before)
            #expect(portal.calls("/portal/sharing/rest/oauth2/token") == 2)
        }
    }

    @Test("oauthUser: an expired or revoked refresh token, or no file, is relogin_required")
    func relogin() async throws {
        let folder = try TestSupport.temporaryFolder()
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let expiredFile = folder + "/expired.json"
            try RefreshTokenFile(refreshToken: Secret("rt-unknown"), issuedAtMilliseconds: nil, expiresAtMilliseconds: nil).write(path: expiredFile)
            for path in [expiredFile, folder + "/missing.json"] {
                let credential = try userCredential(portal, file: path)
                let audience = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
                do {
                    _ = try await issuer.issue(credential, for: audience)
                    Issue.record("\(path) gave a token")
                } catch let error as TokenFailure {
                    #expect(error.code == .reloginRequired)
                    #expect(!error.isRetryable)
                    #expect(error.message.contains("query-worker login --credential me"))
                    #expect(!error.message.contains("rt-unknown"))
                }
            }
        }
    }

    @Test("signOut revokes the refresh token at the portal and deletes the file")
    func signOut() async throws {
        let folder = try TestSupport.temporaryFolder()
        let file = folder + "/me.json"
        try await TestSupport.withPortal { portal, client in
            try signIn(portal, file: file, issuedAgo: 0, lifetime: 86_400_000)
            let token = try RefreshTokenFile.read(path: file).refreshToken.revealed()
            let issuer = TestSupport.issuer(client)
            await issuer.signOut(try userCredential(portal, file: file))
            #expect(portal.snapshot.revoked == [token])
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }
}
