import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Security: portal generateToken, rest/info and the secured folder")
struct SecurityPortalTests {
    @Test("generateToken answers token, expires (ms) and ssl; the token opens the secured folder")
    func generateToken() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let before = nowMilliseconds()
            let answer = try await deployment.portalToken(client, extra: [("expiration", "5")])
            let token = try #require(answer.token)
            let expires = try #require(answer.int64("expires"))
            #expect(expires >= before + 5 * 60_000 - 2_000 && expires <= nowMilliseconds() + 5 * 60_000 + 2_000)
            #expect(answer.bool("ssl") == false)
            let secured = deployment.portal.securedQueryURL(.cities)
            #expect(try await client.secured(secured, token: token).jsonObject().countResult != nil)
            #expect(try await client.get(secured, countQuery + [("token", token)]).jsonObject().countResult != nil)
            #expect(try await client.secured(secured, token: nil).jsonObject().errorCode == 499)
            #expect(try await client.secured(secured, token: token + "x").jsonObject().errorCode == 498)
            // The public path stays public on the same server.
            #expect(try await client.secured(deployment.portal.queryURL(.cities), token: nil).jsonObject().countResult != nil)
            let counters = deployment.authority.counters
            #expect(counters.generateToken == 1 && counters.tokenCalls == 1)
            #expect(counters.accepted == 2 && counters.rejected(499) == 1 && counters.rejected(498) == 1)
        }
    }

    @Test("a wrong password is HTTP 200 with ArcGIS's error body, and GET is refused")
    func wrongPassword() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let response = try await client.form(deployment.generateTokenURL, [("username", "viewer"), ("password", "nope"), ("f", "json")])
            #expect(response.status == 200)
            let body = try response.jsonObject()
            #expect(body.errorCode == 400 && body.errorMessage == "Unable to generate token.")
            #expect(body.errorDetails == ["Invalid username or password."])
            #expect(try await deployment.portalToken(client, username: "nobody").errorCode == 400)
            let get = try await client.get(deployment.generateTokenURL, [("username", "viewer"), ("password", "viewer-password")])
            #expect(try get.jsonObject().errorCode == 400)
            #expect(deployment.authority.counters.wrongPasswords == 2)
            #expect(deployment.authority.issuedTokenCount == 0)
        }
    }

    @Test("rest/info names the token service, and the owning portal when federated")
    func info() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            func info(_ server: SampleFeatureServer) async throws -> [String: Any] {
                try await client.json(server.rootURL + "/arcgis/rest/info", [("f", "json")])
            }
            let portalTokens = deployment.portal.rootURL + "/portal/sharing/rest/generateToken"
            let federated = try await info(deployment.federated)
            #expect(federated["owningSystemUrl"] as? String == deployment.portal.portalURL)
            let auth = try #require(federated["authInfo"] as? [String: Any])
            #expect(auth.bool("isTokenBasedSecurity") == true)
            #expect(auth["tokenServicesUrl"] as? String == portalTokens)
            #expect(auth.int("shortLivedTokenValidity") == 60)
            let standalone = try await info(deployment.standalone)
            #expect(standalone["owningSystemUrl"] is NSNull)
            #expect((standalone["authInfo"] as? [String: Any])?["tokenServicesUrl"] as? String == deployment.standalone.rootURL + "/arcgis/tokens/generateToken")
            #expect(deployment.standalone.tokenServicesURL == deployment.standalone.rootURL + "/arcgis/tokens/generateToken")
            let other = try await info(deployment.otherFederated)
            #expect(other["owningSystemUrl"] as? String == deployment.otherPortal.portalURL)
            #expect(other["owningSystemUrl"] as? String != deployment.portal.portalURL)
            #expect(try await info(deployment.portal)["owningSystemUrl"] as? String == deployment.portal.portalURL)
            #expect(deployment.authority.portalURL == deployment.portal.portalURL)
            let sharing = try await client.json(deployment.portal.rootURL + "/portal/sharing/rest/info", [("f", "json")])
            #expect(sharing["owningSystemUrl"] as? String == deployment.portal.portalURL)
            #expect((sharing["authInfo"] as? [String: Any])?["tokenServicesUrl"] as? String == portalTokens)
            #expect(try await client.get(deployment.federated.rootURL + "/portal/sharing/rest/info").status == 404)
            #expect(deployment.authority.isFederated(deployment.federated.baseURL))
            #expect(!deployment.authority.isFederated(deployment.otherFederated.baseURL))
        }
    }

    @Test("the directory lists the Secured folder; the folder lists its services and wants a token")
    func directory() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let root = try await client.json(deployment.portal.baseURL, [("f", "json")])
            #expect(root["folders"] as? [String] == ["Secured"])
            #expect(try await client.secured(deployment.portal.securedBaseURL, [("f", "json")], token: nil).jsonObject().errorCode == 499)
            let token = try #require(try await deployment.portalToken(client).token)
            let folder = try await client.secured(deployment.portal.securedBaseURL, [("f", "json")], token: token).jsonObject()
            let names = (folder["services"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names.contains("Secured/LA_County_Parcels") && names.allSatisfy { $0.hasPrefix("Secured/") })
            let layer = try await client.secured(deployment.portal.securedLayerURL(.parcels), [("f", "json")], token: token).jsonObject()
            #expect(layer["name"] != nil && layer.errorCode == nil)
        }
    }

    @Test("client_credentials gives an access token the portal's secured services take; bad clients are invalid_client")
    func clientCredentials() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let url = deployment.oauthURL + "/token"
            let answer = try await client.form(
                url, [("client_id", "sample-app"), ("client_secret", "sample-app-secret"), ("grant_type", "client_credentials"), ("expiration", "30"), ("f", "json")]
            ).jsonObject()
            let token = try #require(answer.accessToken)
            #expect(answer.int("expires_in") == 1800)
            #expect(answer.bool("ssl") == false && answer.refreshToken == nil)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: token).jsonObject().countResult != nil)
            let wrongSecret = try await client.form(url, [("client_id", "sample-app"), ("client_secret", "x"), ("grant_type", "client_credentials")])
            #expect(wrongSecret.status == 200)
            let refused = try wrongSecret.jsonObject()
            #expect(refused.errorCode == 400 && refused.oauthError == "invalid_client")
            #expect(refused.error?["error_description"] as? String == "Invalid client_secret")
            let unknown = try await client.form(url, [("client_id", "nobody"), ("client_secret", "x"), ("grant_type", "client_credentials")])
            #expect(try unknown.jsonObject().oauthError == "invalid_client")
            let publicClient = try await client.form(url, [("client_id", "sample-public-app"), ("grant_type", "client_credentials")])
            #expect(try publicClient.jsonObject().oauthError == "invalid_client")
            let unsupported = try await client.form(url, [("client_id", "sample-app"), ("grant_type", "password")])
            #expect(try unsupported.jsonObject().oauthError == "unsupported_grant_type")
            #expect(deployment.authority.counters.oauthToken("client_credentials") == 4)
            #expect(deployment.authority.counters.oauthToken("password") == 1)
        }
    }
}
