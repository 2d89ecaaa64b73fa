import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import Logging
import Testing
import Foundation

/// The authenticator's sharing rules: one token call however many requests need a token or see it rejected at
/// once, terminal failures remembered, scope and names enforced, reloads applied. Its token calls go to a
/// scripted issuer (the real one is tested against the sample portal).
@Suite("Credential authenticator")
struct CredentialAuthenticatorTests {
    static let file = #"""
        {"credentials": [
          {"name": "portal", "kind": "token", "scope": "https://gis.test/arcgis", "username": "svc",
           "password": {"env": "PW"}, "referer": "https://worker.test", "expirationMinutes": 60},
          {"name": "second", "kind": "token", "scope": "https://gis.test/arcgis/rest/services/Special", "username": "other",
           "password": {"env": "PW"}, "referer": "https://worker.test", "expirationMinutes": 60},
          {"name": "ogcKey", "kind": "apiKey", "scope": "https://ogc.test", "key": {"env": "OGC_KEY"}, "parameter": "X-API-Key"},
          {"name": "queryKey", "kind": "apiKey", "scope": "https://q.test", "key": {"env": "OGC_KEY"}, "in": "query", "parameter": "apikey"},
          {"name": "old", "kind": "pregeneratedToken", "scope": "https://old.test", "token": {"env": "PW"},
           "referer": "https://worker.test", "expires": 1000},
          {"name": "web", "kind": "password", "scope": "https://gis.test/arcgis/rest/services/Private", "scheme": "digest",
           "username": "u", "password": {"env": "PW"}},
          {"name": "trust", "kind": "serverTrust", "scope": "https://gis.test", "caFile": "/etc/ssl/certs/ca-certificates.crt"},
          {"name": "iap", "kind": "oauth2", "scope": "https://iap.test", "tokenUrl": "https://idp.test/token",
           "clientId": "c", "clientSecret": {"env": "PW"}}
        ]}
        """#
    static let environment = ["PW": "pw-marker", "OGC_KEY": "key-marker"]
    static let layer = "https://gis.test/arcgis/rest/services/Parcels/FeatureServer/0/query"

    static func make(
        _ issuer: ScriptedIssuer, file: String = file, policy: TokenRefreshPolicy = TokenRefreshPolicy()
    ) throws -> CredentialAuthenticator {
        let store = try CredentialsFile.decode(Array(file.utf8))
        return CredentialAuthenticator(
            store: store, resolver: SecretResolver(environment: environment), issuer: issuer, policy: policy,
            logger: Logger(label: "test"))
    }

    static func header(_ applied: AppliedAuthentication, _ name: String) -> String? {
        applied.headers.first { $0.name == name }?.value
    }

    @Test("50 requests needing a token at once cause one token call and all get its token")
    func singleFlight() async throws {
        let issuer = ScriptedIssuer()
        issuer.configure { $0.referer = "https://worker.test" }
        let authenticator = try Self.make(issuer)
        issuer.holdCalls()
        let applied = try await withThrowingTaskGroup(of: AppliedAuthentication.self) { group in
            for _ in 0..<50 { group.addTask { try await authenticator.authentication(for: Self.layer, credential: nil) } }
            await issuer.waitForHeldCalls(1)
            try await Task.sleep(for: .milliseconds(50))
            issuer.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(issuer.calls == 1)
        #expect(authenticator.tokenCalls(credential: "portal") == 1)
        #expect(Set(applied.map { Self.header($0, "X-Esri-Authorization") }) == ["Bearer token-1"])
        #expect(applied.allSatisfy { Self.header($0, "Referer") == "https://worker.test" })
        #expect(applied.allSatisfy { $0.token?.isRefreshable == true && $0.token?.credential == "portal" })
    }

    @Test("50 requests rejected with the same token cause one token call; a rejection of an older token none")
    func rejectedOnce() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer, policy: TokenRefreshPolicy(freshTokenWindow: .zero))
        let first = try await authenticator.authentication(for: Self.layer, credential: nil)
        let retries = try await withThrowingTaskGroup(of: AppliedAuthentication?.self) { group in
            for _ in 0..<50 {
                group.addTask { try await authenticator.rejected(first, serviceCode: 498, for: Self.layer, credential: nil) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(issuer.calls == 2)
        #expect(Set(retries.map { $0.flatMap { Self.header($0, "X-Esri-Authorization") } }) == ["Bearer token-2"])
        // A request that still held token-1 and is rejected now gets token-2 without a call.
        let late = try await authenticator.rejected(first, serviceCode: 499, for: Self.layer, credential: nil)
        #expect(late.flatMap { Self.header($0, "X-Esri-Authorization") } == "Bearer token-2")
        #expect(issuer.calls == 2)
        #expect(authenticator.statistics(credential: "portal").rejections == 51)
    }

    @Test("a token rejected moments after it was issued is refreshed once; its replacement rejected as fast is credential_rejected")
    func freshTokenRejected() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        let first = try await authenticator.authentication(for: Self.layer, credential: nil)
        // Revoked moments after it was issued: one more token call.
        let second = try #require(try await authenticator.rejected(first, serviceCode: 498, for: Self.layer, credential: nil))
        #expect(Self.header(second, "X-Esri-Authorization") == "Bearer token-2")
        // The replacement refused as fast: the server refuses every token; no third call, and it is remembered.
        await #expect(throws: AuthenticationFailure.self) {
            _ = try await authenticator.rejected(second, serviceCode: 498, for: Self.layer, credential: nil)
        }
        do {
            _ = try await authenticator.authentication(for: Self.layer, credential: nil)
            Issue.record("expected the rejection to be remembered")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .credentialRejected && !failure.isRetryable)
        }
        #expect(issuer.calls == 2)
    }

    @Test("a wrong password is tried once, then answered from memory: 50 queued requests, one token call")
    func terminalFailureRemembered() async throws {
        let issuer = ScriptedIssuer()
        issuer.configure {
            $0.failures = [TokenFailure(code: .credentialRejected, message: "wrong password for portal", isRetryable: false)]
        }
        let authenticator = try Self.make(issuer)
        issuer.holdCalls()
        let codes = try await withThrowingTaskGroup(of: AuthenticationFailure.Code?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        _ = try await authenticator.authentication(for: Self.layer, credential: nil)
                        return nil
                    } catch let failure as AuthenticationFailure {
                        return failure.code
                    }
                }
            }
            await issuer.waitForHeldCalls(1)
            issuer.release()
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(codes.allSatisfy { $0 == .credentialRejected })
        for _ in 0..<10 {
            await #expect(throws: AuthenticationFailure.self) {
                _ = try await authenticator.authentication(for: Self.layer, credential: nil)
            }
        }
        #expect(issuer.calls == 1)
        #expect(authenticator.statistics(credential: "portal").failedTokenCalls == 1)
    }

    // The backoff is long enough (3 s) that a loaded machine can't let the immediate retry slip past it.
    @Test("a retryable failure is tried again after the backoff, not before")
    func retryableFailureBacksOff() async throws {
        let issuer = ScriptedIssuer()
        issuer.configure {
            $0.failures = [TokenFailure(code: .tokenServiceUnavailable, message: "portal down", isRetryable: true)]
        }
        let authenticator = try Self.make(issuer, policy: TokenRefreshPolicy(initialBackoff: .seconds(3)))
        do {
            _ = try await authenticator.authentication(for: Self.layer, credential: nil)
            Issue.record("expected a failure")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .tokenServiceUnavailable && failure.isRetryable)
        }
        let failed = ContinuousClock.now
        var retryFailed = false
        do { _ = try await authenticator.authentication(for: Self.layer, credential: nil) } catch is AuthenticationFailure { retryFailed = true }
        // A machine stalled for the whole backoff between the two calls retries rightly: only a call made within
        // the backoff must fail without a token call.
        if ContinuousClock.now - failed < .milliseconds(2_500) {
            #expect(retryFailed)
            #expect(issuer.calls == 1)
        }
        try await Task.sleep(for: .milliseconds(3_100))
        let applied = try await authenticator.authentication(for: Self.layer, credential: nil)
        #expect(Self.header(applied, "X-Esri-Authorization") == "Bearer token-2")
        #expect(issuer.calls == 2)
    }

    @Test("a request cancelled while it waits for the shared token call stops; the others get the token")
    func cancelledWaiter() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        issuer.holdCalls()
        let cancelled = Task { try await authenticator.authentication(for: Self.layer, credential: nil) }
        let patient = Task { try await authenticator.authentication(for: Self.layer, credential: nil) }
        await issuer.waitForHeldCalls(1)
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
        issuer.release()
        #expect(Self.header(try await patient.value, "X-Esri-Authorization") == "Bearer token-1")
        #expect(issuer.calls == 1)
    }

    @Test("API keys go in their header or parameter; a rejected key is credential_expired, never refreshed")
    func apiKeys() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        let header = try await authenticator.authentication(for: "https://ogc.test/collections/a/items", credential: nil)
        #expect(Self.header(header, "X-API-Key") == "key-marker")
        #expect(header.parameters.isEmpty && header.token?.isRefreshable == false)
        let query = try await authenticator.authentication(for: "https://q.test/collections", credential: nil)
        #expect(query.headers.isEmpty && query.parameters.map(\.name) == ["apikey"] && query.parameters.first?.value == "key-marker")
        do {
            _ = try await authenticator.rejected(header, serviceCode: 498, for: "https://ogc.test/collections", credential: nil)
            Issue.record("expected credential_expired")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .credentialExpired && failure.credential == "ogcKey")
            #expect(!failure.message.contains("key-marker"))
        }
        #expect(issuer.calls == 0)
    }

    @Test("an expired pre-generated token is credential_expired before any request")
    func expiredPregeneratedToken() async throws {
        let authenticator = try Self.make(ScriptedIssuer())
        do {
            _ = try await authenticator.authentication(for: "https://old.test/arcgis/rest/services", credential: nil)
            Issue.record("expected credential_expired")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .credentialExpired && failure.credential == "old")
        }
    }

    @Test("the named credential wins in its role; unknown names and names out of scope are refused")
    func namedCredentials() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        let special = "https://gis.test/arcgis/rest/services/Special/MapServer/0"
        let bySpecificity = try await authenticator.authentication(for: special, credential: nil)
        #expect(bySpecificity.token?.credential == "second")
        let named = try await authenticator.authentication(for: special, credential: "portal")
        #expect(named.token?.credential == "portal")
        // "second" does not cover the parcels layer.
        do {
            _ = try await authenticator.authentication(for: Self.layer, credential: "second")
            Issue.record("expected credential_scope_mismatch")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .credentialScopeMismatch && failure.credential == "second")
        }
        do {
            _ = try await authenticator.authentication(for: Self.layer, credential: "nobody")
            Issue.record("expected unknown_credential")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .unknownCredential)
        }
        do {
            _ = try await authenticator.authentication(for: "https://gis.test.evil.net/arcgis/rest", credential: "portal")
            Issue.record("expected credential_scope_mismatch")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .credentialScopeMismatch)
        }
        let nothing = try await authenticator.authentication(for: "https://public.test/arcgis/rest/services", credential: nil)
        #expect(nothing.isEmpty)
    }

    @Test("several roles apply together: server trust, HTTP authentication and a token, for this URL only")
    func rolesTogether() async throws {
        let authenticator = try Self.make(ScriptedIssuer())
        let url = "https://gis.test/arcgis/rest/services/Private/MapServer/0/query"
        let applied = try await authenticator.authentication(for: url, credential: nil)
        let rule = try #require(applied.network)
        #expect(rule.caBundlePath == "/etc/ssl/certs/ca-certificates.crt")
        #expect(rule.authentication?.scheme == .digest && rule.authentication?.username == "u")
        #expect(rule.match == .prefix(url))
        #expect(Self.header(applied, "X-Esri-Authorization") == "Bearer token-1")
        let other = try await authenticator.authentication(for: "https://gis.test/arcgis/rest/services/Public/MapServer", credential: nil)
        #expect(other.network?.authentication == nil && other.network?.caBundlePath != nil)
    }

    @Test("OAuth 2.0 tokens go in Authorization; an https-only token is refused over http")
    func headersAndTransport() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        let applied = try await authenticator.authentication(for: "https://iap.test/ogc/collections", credential: nil)
        #expect(Self.header(applied, "Authorization") == "Bearer token-1")
        #expect(Self.header(applied, "X-Esri-Authorization") == nil)
        issuer.configure { $0.requiresTLS = true }
        let plain = try Self.make(issuer, file: Self.file.replacingOccurrences(of: "https://gis.test", with: "http://gis.test"))
        do {
            _ = try await plain.authentication(for: Self.layer.replacingOccurrences(of: "https:", with: "http:"), credential: nil)
            Issue.record("expected insecure_transport")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .insecureTransport)
        }
    }

    @Test("a reload drops the tokens of changed credentials, keeps the others, and signs removed OAuth users out")
    func reload() async throws {
        let issuer = ScriptedIssuer()
        let user = #"""
            ,{"name": "user", "kind": "oauthUser", "scope": "https://user.test", "portalUrl": "https://portal.test",
              "clientId": "c", "refreshTokenFile": "/tmp/none"}]}
            """#
        let withUser = Self.file.replacingOccurrences(of: "\n]}", with: user)
        let authenticator = try Self.make(issuer, file: withUser)
        _ = try await authenticator.authentication(for: Self.layer, credential: "portal")
        let special = "https://gis.test/arcgis/rest/services/Special/MapServer/0"
        _ = try await authenticator.authentication(for: special, credential: "second")
        #expect(issuer.calls == 2)
        // "portal" signs in as another user, "user" is gone, "second" is unchanged.
        let changed = Self.file.replacingOccurrences(of: #""username": "svc""#, with: #""username": "svc2""#)
        #expect(changed != Self.file)
        await authenticator.replace(store: try CredentialsFile.decode(Array(changed.utf8)))
        _ = try await authenticator.authentication(for: special, credential: "second")
        #expect(issuer.calls == 2)
        let renewed = try await authenticator.authentication(for: Self.layer, credential: "portal")
        #expect(Self.header(renewed, "X-Esri-Authorization") == "Bearer token-3")
        #expect(issuer.signedOut == ["user"])
    }

    @Test("requests waiting for a token of a credential a reload removes fail with unknown_credential")
    func reloadRemovesWaitedCredential() async throws {
        let issuer = ScriptedIssuer()
        let authenticator = try Self.make(issuer)
        issuer.holdCalls()
        let waiting = Task { try await authenticator.authentication(for: Self.layer, credential: "portal") }
        await issuer.waitForHeldCalls(1)
        try await Task.sleep(for: .milliseconds(20))
        let without = Self.file.replacingOccurrences(of: #""name": "portal""#, with: #""name": "renamed""#)
        await authenticator.replace(store: try CredentialsFile.decode(Array(without.utf8)))
        do {
            _ = try await waiting.value
            Issue.record("expected unknown_credential")
        } catch let failure as AuthenticationFailure {
            #expect(failure.code == .unknownCredential && failure.credential == "portal")
        }
        issuer.release()
    }
}
