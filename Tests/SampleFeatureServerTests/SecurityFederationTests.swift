import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Security: federation, standalone servers and other portals")
struct SecurityFederationTests {
    @Test("a portal token exchanged for a federated server opens it; the portal token itself does not")
    func exchange() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let portalToken = try #require(try await deployment.portalToken(client).token)
            let secured = deployment.federated.securedQueryURL(.cities)
            #expect(try await client.secured(secured, token: portalToken).jsonObject().errorCode == 498)
            let exchanged = try await client.form(
                deployment.generateTokenURL, [("token", portalToken), ("serverUrl", deployment.federated.serverRootURL), ("f", "json")]
            ).jsonObject()
            let serverToken = try #require(exchanged.token)
            #expect(serverToken != portalToken && exchanged.int64("expires") != nil)
            #expect(try await client.secured(secured, token: serverToken).jsonObject().countResult != nil)
            // A server token is for its server only: not the portal's services, not the standalone server's.
            #expect(try await client.secured(deployment.standalone.securedQueryURL(.cities), token: serverToken).jsonObject().errorCode == 498)
            // The portal's own secured services take the portal token directly.
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: portalToken).jsonObject().countResult != nil)
            #expect(deployment.authority.counters.exchange == 1 && deployment.authority.counters.generateToken == 1)
            // The knob that lets a federated server take portal tokens.
            deployment.authority.updateKnobs { $0.federatedAcceptsPortalTokens = true }
            #expect(try await client.secured(secured, token: portalToken).jsonObject().countResult != nil)
        }
    }

    @Test("exchange refuses a server that is not federated, and an invalid portal token with 498")
    func exchangeRefusals() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let portalToken = try #require(try await deployment.portalToken(client).token)
            let notOurs = try await client.form(
                deployment.generateTokenURL, [("token", portalToken), ("serverUrl", deployment.otherFederated.serverRootURL), ("f", "json")]
            ).jsonObject()
            #expect(notOurs.errorCode == 400 && notOurs.token == nil)
            let invalid = try await client.form(
                deployment.generateTokenURL, [("token", "forged"), ("serverUrl", deployment.federated.serverRootURL), ("f", "json")]
            ).jsonObject()
            #expect(invalid.errorCode == 498)
            // A server token cannot be exchanged again.
            let exchanged = try #require(try await client.form(
                deployment.generateTokenURL, [("token", portalToken), ("serverUrl", deployment.federated.rootURL + "/arcgis/rest/services")]
            ).jsonObject().token)
            let again = try await client.form(
                deployment.generateTokenURL, [("token", exchanged), ("serverUrl", deployment.federated.serverRootURL)]).jsonObject()
            #expect(again.errorCode == 498)
            #expect(deployment.authority.counters.exchange == 4)
        }
    }

    @Test("a standalone server takes only tokens from its own token service")
    func standalone() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let tokens = deployment.standalone.rootURL + "/arcgis/tokens/generateToken"
            let answer = try await client.form(tokens, [("username", "viewer"), ("password", "viewer-password"), ("f", "json")]).jsonObject()
            let token = try #require(answer.token)
            #expect(try await client.secured(deployment.standalone.securedQueryURL(.cities), token: token).jsonObject().countResult != nil)
            #expect(try await client.secured(deployment.federated.securedQueryURL(.cities), token: token).jsonObject().errorCode == 498)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: token).jsonObject().errorCode == 498)
            let portalToken = try #require(try await deployment.portalToken(client).token)
            #expect(try await client.secured(deployment.standalone.securedQueryURL(.cities), token: portalToken).jsonObject().errorCode == 498)
            let wrong = try await client.form(tokens, [("username", "viewer"), ("password", "wrong")]).jsonObject()
            #expect(wrong.errorDetails == ["Invalid username or password."])
            // A federated server has no token service of its own.
            #expect(try await client.form(deployment.federated.rootURL + "/arcgis/tokens/generateToken", [("username", "viewer")]).status == 404)
            #expect(deployment.authority.counters.serverGenerateToken == 2)
        }
    }

    @Test("a server owned by another portal refuses this portal's tokens")
    func otherPortal() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let portalToken = try #require(try await deployment.portalToken(client).token)
            #expect(try await client.secured(deployment.otherFederated.securedQueryURL(.cities), token: portalToken).jsonObject().errorCode == 498)
            #expect(try await client.secured(deployment.otherPortal.securedQueryURL(.cities), token: portalToken).jsonObject().errorCode == 498)
            let otherToken = try #require(try await client.form(
                deployment.otherPortal.rootURL + "/portal/sharing/rest/generateToken", [("username", "viewer"), ("password", "viewer-password")]
            ).jsonObject().token)
            let exchanged = try #require(try await client.form(
                deployment.otherPortal.rootURL + "/portal/sharing/rest/generateToken",
                [("token", otherToken), ("serverUrl", deployment.otherFederated.serverRootURL)]
            ).jsonObject().token)
            #expect(try await client.secured(deployment.otherFederated.securedQueryURL(.cities), token: exchanged).jsonObject().countResult != nil)
            #expect(deployment.otherAuthority.counters.tokenCalls == 2 && deployment.authority.counters.tokenCalls == 1)
        }
    }
}
