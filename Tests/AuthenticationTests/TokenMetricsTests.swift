import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import Logging
import Metrics
import MetricsTestKit
import SampleFeatureServer
import Testing

/// Token calls and failed refreshes by credential name (``TokenMetrics``): against the secured sample
/// deployment over loopback, and with a scripted issuer for a refresh that fails.
@Suite("Token metrics")
struct TokenMetricsTests {
    static func fetches(_ metrics: TestMetrics, _ credential: String, _ result: String) -> Int64 {
        metrics.counterTotal(
            label: TokenMetrics.tokenFetches.name, dimensions: [("credential", credential), ("result", result)])
    }

    static func refreshFailures(_ metrics: TestMetrics, _ credential: String) -> Int64 {
        metrics.counterTotal(label: TokenMetrics.tokenRefreshFailures.name, dimensions: [("credential", credential)])
    }

    @Test("token calls to a real token service are counted by credential name and result; no secret in a label")
    func tokenCallsAgainstTheSampleDeployment() async throws {
        try await SampleDeployment.with { deployment, client in
            let metrics = TestMetrics()
            let file = #"{"credentials":["#
                + #"{"name":"gis","kind":"token","scope":\#(deployment.scopes),"username":"viewer","password":{"env":"PW"},"#
                + #""referer":"https://worker.example.com","expirationMinutes":30},"#
                + #"{"name":"wrong","kind":"token","scope":\#(deployment.scopes),"username":"viewer","password":{"env":"WRONG_PW"},"#
                + #""referer":"https://worker.example.com","expirationMinutes":30}]}"#
            let authenticator = CredentialAuthenticator.arcGIS(
                store: try CredentialsFile.decode(Array(file.utf8)),
                resolver: SecretResolver(environment: ["PW": "viewer-password", "WRONG_PW": "wrong-marker"]), client: client,
                logger: TestSupport.logger, metrics: TokenMetrics(factory: metrics))
            let layer = deployment.standalone.securedLayerURL(.cities)
            for _ in 0..<3 { _ = try await authenticator.authentication(for: layer, credential: "gis") }
            await #expect(throws: AuthenticationFailure.self) {
                _ = try await authenticator.authentication(for: layer, credential: "wrong")
            }
            #expect(Self.fetches(metrics, "gis", "ok") == 1)
            #expect(Self.fetches(metrics, "gis", "failed") == 0)
            #expect(Self.fetches(metrics, "wrong", "ok") == 0)
            #expect(Self.fetches(metrics, "wrong", "failed") == 1)
            #expect(Int(Self.fetches(metrics, "gis", "ok")) == authenticator.tokenCalls(credential: "gis"))
            // A first token call that fails is no failed refresh: there was no token to refresh.
            #expect(Self.refreshFailures(metrics, "wrong") == 0)
            let values = metrics.counters.flatMap { $0.dimensions.map(\.1) }
            #expect(!values.contains { $0.contains("password") || $0.contains("marker") || $0.contains("http") })
        }
    }

    /// The authenticator's caches, as the soak samples them: one token slot per credential and audience in use,
    /// one entry per URL looked up, and a reload that changes the credential lets both go.
    @Test("the credential caches' gauge counts token slots and URLs, and a reload lets them go")
    func credentialCacheEntries() async throws {
        let metrics = TestMetrics()
        let store = try CredentialsFile.decode(Array(CredentialAuthenticatorTests.file.utf8))
        let authenticator = CredentialAuthenticator(
            store: store, resolver: SecretResolver(environment: CredentialAuthenticatorTests.environment),
            issuer: ScriptedIssuer(), logger: Logger(label: "test"), metrics: TokenMetrics(factory: metrics))
        let layers = (0..<5).map { "https://gis.test/arcgis/rest/services/Parcels/FeatureServer/\($0)/query" }
        for layer in layers + layers { _ = try await authenticator.authentication(for: layer, credential: nil) }
        // Queries of one layer differ in their query string only: one entry for all of them.
        for clause in 0..<20 {
            _ = try await authenticator.authentication(for: layers[0] + "?where=OBJECTID>\(clause)&f=json", credential: nil)
        }
        let tokens = try metrics.expectGauge(TokenMetrics.credentialCacheEntries.name, [("cache", "tokens")])
        let urls = try metrics.expectGauge(TokenMetrics.credentialCacheEntries.name, [("cache", "urls")])
        #expect(tokens.lastValue == 1, "one credential, one audience: \(String(describing: tokens.lastValue))")
        #expect(urls.lastValue == 5, "each layer once, however often and with whatever query: \(String(describing: urls.lastValue))")
        let changed = CredentialAuthenticatorTests.file.replacing(#""username": "svc""#, with: #""username": "svc2""#)
        await authenticator.replace(store: try CredentialsFile.decode(Array(changed.utf8)))
        #expect(tokens.lastValue == 0 && urls.lastValue == 0)
    }

    @Test("a failed call to replace a rejected token is a failed refresh")
    func failedRefresh() async throws {
        let metrics = TestMetrics()
        let issuer = ScriptedIssuer()
        let store = try CredentialsFile.decode(Array(CredentialAuthenticatorTests.file.utf8))
        let authenticator = CredentialAuthenticator(
            store: store, resolver: SecretResolver(environment: CredentialAuthenticatorTests.environment), issuer: issuer,
            policy: TokenRefreshPolicy(freshTokenWindow: .zero), logger: Logger(label: "test"),
            metrics: TokenMetrics(factory: metrics))
        let layer = CredentialAuthenticatorTests.layer
        let first = try await authenticator.authentication(for: layer, credential: nil)
        issuer.configure {
            $0.failures = [TokenFailure(code: .credentialRejected, message: "the portal refuses the password now", isRetryable: false)]
        }
        await #expect(throws: AuthenticationFailure.self) {
            _ = try await authenticator.rejected(first, serviceCode: 498, for: layer, credential: nil)
        }
        #expect(issuer.calls == 2)
        #expect(Self.fetches(metrics, "portal", "ok") == 1)
        #expect(Self.fetches(metrics, "portal", "failed") == 1)
        #expect(Self.refreshFailures(metrics, "portal") == 1)
    }
}
