import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Security: the HTTP admin path, the secured OGC mount and log redaction")
struct SecurityAdminTests {
    @Test("/_sample/security shows counters and changes knobs over HTTP")
    func admin() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let url = deployment.federated.securityAdminURL
            _ = try await deployment.portalToken(client)
            let document = try await client.json(url)
            let counters = try #require(document["counters"] as? [String: Any])
            #expect(counters.int("generateToken") == 1 && counters.int("tokenCalls") == 1)
            #expect((document["knobs"] as? [String: Any])?.int("tokenLifetimeSeconds") == 3600)
            #expect(document["portalUrl"] as? String == deployment.portal.portalURL)
            let changed = try await client.form(url, [("tokenLifetimeSeconds", "60"), ("ssl", "true"), ("rejectNext", "1"), ("rejectCode", "499"), ("rejectShape", "status")])
            #expect(changed.status == 200)
            let changedKnobs = try changed.jsonObject()["knobs"] as? [String: Any]
            #expect(changedKnobs?.int("tokenLifetimeSeconds") == 60)
            #expect(deployment.authority.knobs.tokenLifetimeSeconds == 60 && deployment.authority.knobs.ssl)
            let token = try #require(try await deployment.portalToken(client).token)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: token).status == 499)
            _ = try await client.form(url, [("revokeAll", "true")])
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: token).jsonObject().errorCode == 498)
            _ = try await client.form(url, [("username", "viewer"), ("password", "rotated")])
            #expect(try await deployment.portalToken(client, password: "rotated").token != nil)
            _ = try await client.form(url, [("resetCounters", "true")])
            #expect(deployment.authority.counters.tokenCalls == 0)
            #expect(try await client.form(url, [("nonsense", "1")]).status == 400)
            #expect(try await client.form(url, [("rejectCode", "500"), ("rejectNext", "1")]).status == 400)
            #expect(try await client.form(url, [("tokenLifetimeSeconds", "0")]).status == 400)
            // A public server has no admin path.
            try await TestSupport.withServer { (server, client) async throws in
                #expect(try await client.get(server.rootURL + "/_sample/security").status == 404)
            }
        }
    }

    @Test("/ogc-secured wants an API key; /ogc stays open")
    func ogcAPIKey() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let items = deployment.portal.securedOGCURL + "/collections/USA_Cities/items"
            let refused = try await client.get(items, [("limit", "1")])
            #expect(refused.status == 401)
            #expect(try refused.jsonObject()["code"] as? String == "Unauthorized")
            var headers = HTTPHeaders()
            headers.add("X-API-Key", SampleSecurity.defaultOGCAPIKey)
            #expect(try await client.execute(HTTPRequest(url: items + "?limit=1", headers: headers)).status == 200)
            #expect(try await client.secured(items, [("limit", "1")], token: SampleSecurity.defaultOGCAPIKey).status == 200)
            #expect(try await client.secured(items, [("limit", "1")], token: "wrong").status == 401)
            #expect(try await client.get(items, [("limit", "1"), ("apiKey", SampleSecurity.defaultOGCAPIKey)]).status == 200)
            #expect(try await client.get(deployment.portal.ogcURL + "/collections/USA_Cities/items", [("limit", "1")]).status == 200)
            #expect(deployment.authority.counters.ogcUnauthorized == 2)
            try await TestSupport.withServer { (server, client) async throws in
                #expect(try await client.get(server.rootURL + "/ogc-secured").status == 404)
            }
        }
    }

    @Test("passwords, secrets, codes and tokens never reach the request log")
    func redaction() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            _ = try await client.form(deployment.generateTokenURL, [("username", "viewer"), ("password", "viewer-password")])
            _ = try await client.form(
                deployment.oauthURL + "/token",
                [("client_id", "sample-app"), ("client_secret", "sample-app-secret"), ("grant_type", "authorization_code"), ("code", "c0de"),
                 ("code_verifier", "v3rifier"), ("refresh_token", "r3fresh")])
            _ = try await client.form(deployment.oauthURL + "/revokeToken", [("client_id", "sample-app"), ("auth_token", "s3cret-token")])
            let logged = deployment.portal.statistics.recentRequests.flatMap(\.parameters)
            for name in ["password", "client_secret", "code", "code_verifier", "refresh_token", "auth_token"] {
                let values = logged.filter { $0.name == name }.map(\.value)
                #expect(!values.isEmpty && values.allSatisfy { $0 == "<redacted>" }, "\(name)")
            }
            #expect(logged.contains { $0.name == "username" && $0.value == "viewer" })
        }
    }
}
