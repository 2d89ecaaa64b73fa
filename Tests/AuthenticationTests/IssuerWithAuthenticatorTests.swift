import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import SampleFeatureServer
import Testing

/// The lead's ``CredentialAuthenticator`` over the real issuer and the secured sample deployment: what the
/// engines will see.
@Suite("CredentialAuthenticator with ArcGISTokenIssuer on the secured sample server")
struct IssuerWithAuthenticatorTests {
    @Test("50 concurrent requests to a federated server: one portal token, one exchange; a revoked token: one refresh")
    func federatedThroughAuthenticator() async throws {
        try await SampleDeployment.with { deployment, client in
            let store = try CredentialsFile.decode(Array(
                #"{"credentials":[{"name":"gis","kind":"token","scope":\#(deployment.scopes),"username":"viewer","password":{"env":"PW"},"referer":"https://worker.example.com","expirationMinutes":30}]}"#.utf8))
            let issuer = ArcGISTokenIssuer(client: client, resolver: SampleDeploymentTests.resolver, logger: TestSupport.logger)
            // The revocation below comes within the default 10 s "fresh token" window; this test is about the refresh.
            let authenticator = CredentialAuthenticator(
                store: store, resolver: SampleDeploymentTests.resolver, issuer: issuer,
                policy: TokenRefreshPolicy(freshTokenWindow: .milliseconds(1)), logger: TestSupport.logger)
            let layer = deployment.federated.securedLayerURL(.cities)
            let applied = try await withThrowingTaskGroup(of: AppliedAuthentication.self) { group in
                for _ in 0..<50 { group.addTask { try await authenticator.authentication(for: layer, credential: nil) } }
                var all: [AppliedAuthentication] = []
                for try await applied in group { all.append(applied) }
                return all
            }
            #expect(Set(applied).count == 1)
            #expect(deployment.authority.counters.generateToken == 1)
            #expect(deployment.authority.counters.exchange == 1)
            let first = try #require(applied.first)
            let query = HTTPRequest(url: layer + "/query?where=1%3D1&returnCountOnly=true&f=json")
            #expect(try await client.execute(first.applied(to: query)).bodyString.contains("\"count\""))

            deployment.authority.revokeAllTokens()
            #expect(try await client.execute(first.applied(to: query)).bodyString.contains("498"))
            let retry = try #require(try await authenticator.rejected(first, serviceCode: 498, for: layer, credential: nil))
            #expect(retry != first)
            #expect(try await client.execute(retry.applied(to: query)).bodyString.contains("\"count\""))
            #expect(deployment.authority.counters.generateToken == 2)
            #expect(deployment.authority.counters.exchange == 2)
        }
    }
}
