import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import Testing

/// The `token` kind against the fake deployment: standalone and federated sites, the audience per site,
/// `not_federated`, a token service outside the scopes, wrong passwords.
@Suite("ArcGISTokenIssuer: generateToken and federation")
struct TokenIssuerTests {
    private func tokenCredential(_ portal: FakePortal, scope: String? = nil, tokenURL: String? = nil, password: String = "PW") throws -> Credential {
        var members = #""name":"gis","kind":"token","scope":"\#(scope ?? portal.base)","username":"\#(FakePortal.username)","#
            + #""password":{"env":"\#(password)"},"referer":"https://worker.example.com","expirationMinutes":60"#
        if let tokenURL { members += #","tokenUrl":"\#(tokenURL)""# }
        return try TestSupport.credential(members)
    }

    @Test("a standalone site: its own token service from rest/info, minted for the referer, info loaded once")
    func standalone() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let credential = try tokenCredential(portal)
            let layer = portal.base + "/standalone/rest/services/Parcels/FeatureServer/0"
            async let first = issuer.audience(for: credential, url: layer)
            async let second = issuer.audience(for: credential, url: layer + "/query")
            let audiences = try await [first, second]
            let audience = audiences[0]
            #expect(audiences[1] == audience)
            #expect(audience.tokenServiceURL == portal.base + "/standalone/tokens/generateToken")
            #expect(audience.key == audience.tokenServiceURL)
            #expect(audience.exchangeForServer == nil)
            _ = try await issuer.audience(for: credential, url: layer)
            #expect(portal.calls("/standalone/rest/info") == 1)

            let issued = try await issuer.issue(credential, for: audience)
            #expect(issued.grant.token.revealed().hasPrefix("standalone-"))
            #expect(issued.referer == "https://worker.example.com")
            #expect(!issued.requiresTLS)
            #expect(issued.grant.requestedLifetime == .seconds(3600))
            let expiry = try #require(issued.grant.serverExpiry)
            #expect(expiry > .now + .seconds(3500) && expiry < .now + .seconds(3700))
            #expect(portal.snapshot.referers == ["https://worker.example.com"])
        }
    }

    @Test("a federated server: portal token exchanged for a server token, one audience per server root")
    func federated() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let credential = try tokenCredential(portal)
            let fed = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            let fed2 = try await issuer.audience(for: credential, url: portal.base + "/fed2/rest/services/B/MapServer/1")
            #expect(fed.key == portal.base + "/fed")
            #expect(fed.exchangeForServer == portal.base + "/fed")
            #expect(fed.tokenServiceURL == portal.generateTokenURL)
            #expect(fed2.key == portal.base + "/fed2")
            #expect(fed != fed2)

            let issued = try await issuer.issue(credential, for: fed)
            #expect(issued.grant.token.revealed().hasPrefix("server-"))
            #expect(issued.referer == "https://worker.example.com")
            _ = try await issuer.issue(credential, for: fed2)
            #expect(portal.snapshot.exchanges == [portal.base + "/fed", portal.base + "/fed2"])
            #expect(portal.calls("/portal/sharing/rest/generateToken") == 4)
        }
    }

    @Test("tokenUrl of the owning portal works; of another portal the server is not_federated")
    func notFederated() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let credential = try tokenCredential(portal, tokenURL: portal.generateTokenURL)
            let fed = try await issuer.audience(for: credential, url: portal.base + "/fed/rest/services/A/FeatureServer/0")
            #expect(fed.exchangeForServer == portal.base + "/fed")
            do {
                _ = try await issuer.audience(for: credential, url: portal.base + "/other/rest/services/C/FeatureServer/0")
                Issue.record("a server of another portal got an audience")
            } catch let error as AuthenticationFailure {
                #expect(error.code == .notFederated)
                #expect(error.credential == "gis")
                #expect(!error.isRetryable)
            }
        }
    }

    @Test("a token service outside the credential's scopes never sees the password")
    func outsideScope() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let credential = try tokenCredential(portal, scope: portal.base + "/rogue")
            do {
                _ = try await issuer.audience(for: credential, url: portal.base + "/rogue/rest/services/X/FeatureServer/0")
                Issue.record("a token service outside the scopes was accepted")
            } catch let error as AuthenticationFailure {
                #expect(error.code == .authenticationRequired)
            }
            do {
                let audience = TokenAudience(key: "k", tokenServiceURL: portal.base + "/collector/generateToken")
                _ = try await issuer.issue(credential, for: audience)
                Issue.record("the password went outside the scopes")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
            }
            #expect(portal.calls("/collector/generateToken") == 0)
        }
    }

    @Test("a wrong password is terminal credential_rejected; a failing site is retryable token_service_unavailable")
    func failures() async throws {
        try await TestSupport.withPortal { portal, client in
            let issuer = TestSupport.issuer(client)
            let wrong = try tokenCredential(portal, password: "WRONG_PW")
            let audience = try await issuer.audience(for: wrong, url: portal.base + "/standalone/rest/services/P/FeatureServer/0")
            do {
                _ = try await issuer.issue(wrong, for: audience)
                Issue.record("a wrong password got a token")
            } catch let error as TokenFailure {
                #expect(error.code == .credentialRejected)
                #expect(!error.isRetryable)
                #expect(!error.message.contains("not-the-password"))
                #expect(!error.message.contains("Invalid username"))
            }
            do {
                _ = try await issuer.audience(for: wrong, url: portal.base + "/down/rest/services/P/FeatureServer/0")
                Issue.record("a failing site gave an audience")
            } catch let error as AuthenticationFailure {
                #expect(error.code == .tokenServiceUnavailable)
                #expect(error.isRetryable)
            }
        }
    }

    @Test("ssl: true in the answer means the token requires TLS")
    func requiresTLS() async throws {
        try await TestSupport.withPortal { portal, client in
            portal.configure { $0.requiresTLS = true }
            let issuer = TestSupport.issuer(client)
            let credential = try tokenCredential(portal, tokenURL: portal.generateTokenURL)
            let audience = try await issuer.audience(for: credential, url: portal.base + "/portal/sharing/rest/content/items/1")
            #expect(audience.exchangeForServer == nil)
            #expect(try await issuer.issue(credential, for: audience).requiresTLS)
            // The portal's REST API has no rest/info here (404): remembered, not asked again per request.
            _ = try await issuer.audience(for: credential, url: portal.base + "/portal/sharing/rest/content/items/2")
            #expect(portal.calls("/portal/sharing/rest/info") == 1)
        }
    }

    @Test("token calls and rest/info carry the network rule given for their URL")
    func networkRule() async throws {
        try await TestSupport.withPortal { portal, client in
            // A rule for another origin: the client refuses to send, which shows the rule went with the request.
            let issuer = ArcGISTokenIssuer(
                client: client, resolver: TestSupport.resolver, logger: TestSupport.logger,
                networkRule: { _ in HTTPCredentialRule(match: .origin("http://127.0.0.1:1")) })
            let credential = try tokenCredential(portal, tokenURL: portal.generateTokenURL)
            let audience = TokenAudience(key: portal.generateTokenURL, tokenServiceURL: portal.generateTokenURL)
            do {
                _ = try await issuer.issue(credential, for: audience)
                Issue.record("a request went out without its rule")
            } catch let error as TokenFailure {
                #expect(error.code == .tokenServiceUnavailable)
            }
            do {
                _ = try await issuer.audience(for: try tokenCredential(portal), url: portal.base + "/standalone/rest/services/P/FeatureServer/0")
                Issue.record("rest/info went out without its rule")
            } catch let error as AuthenticationFailure {
                #expect(error.code == .tokenServiceUnavailable)
            }
            #expect(portal.calls("/portal/sharing/rest/generateToken") == 0)
            #expect(portal.calls("/standalone/rest/info") == 0)
        }
    }
}
