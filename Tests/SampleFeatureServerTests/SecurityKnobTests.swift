import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Security: knobs, forced rejections and counters")
struct SecurityKnobTests {
    @Test("a 2-second token expires: 498 afterwards, and expiration asks for less than the maximum")
    func shortTokens() async throws {
        try await SecuredDeployment.with(knobs: SampleSecurityKnobs(tokenLifetimeSeconds: 2)) { (deployment, client) async throws in
            let answer = try await deployment.portalToken(client, extra: [("expiration", "60")])
            let token = try #require(answer.token)
            let expires = try #require(answer.int64("expires"))
            #expect(expires <= nowMilliseconds() + 2_100)
            let secured = deployment.portal.securedQueryURL(.cities)
            let first = try await client.secured(secured, token: token).jsonObject()
            // On a loaded machine the query may come after the 2 s: then the token must already be refused.
            #expect(first.countResult != nil || nowMilliseconds() >= expires)
            // The 2 s run from when the server minted the token, which on a loaded machine is well after this
            // test asked for it: wait for the expiry the server reported (no clock skew here), not a guess.
            while nowMilliseconds() <= expires {
                try await Task.sleep(for: .milliseconds(expires - nowMilliseconds() + 1))
            }
            #expect(try await client.secured(secured, token: token).jsonObject().errorCode == 498)
            let info = try await client.json(deployment.federated.rootURL + "/arcgis/rest/info", [("f", "json")])
            #expect((info["authInfo"] as? [String: Any])?.int("shortLivedTokenValidity") == 1)
        }
    }

    @Test("a referer-bound token needs the same Referer; the knob turns the check off")
    func refererBinding() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let referer = "https://app.example.com"
            let token = try #require(try await deployment.portalToken(client, extra: [("client", "referer"), ("referer", referer)]).token)
            let secured = deployment.portal.securedQueryURL(.cities)
            #expect(try await client.secured(secured, token: token, referer: referer).jsonObject().countResult != nil)
            #expect(try await client.secured(secured, token: token).jsonObject().errorCode == 498)
            #expect(try await client.secured(secured, token: token, referer: "https://evil.example.com").jsonObject().errorCode == 498)
            // The exchange keeps the binding.
            var headers = HTTPHeaders()
            headers.add("Referer", referer)
            let serverToken = try #require(try await client.form(
                deployment.generateTokenURL, [("token", token), ("serverUrl", deployment.federated.serverRootURL)], headers: headers
            ).jsonObject().token)
            #expect(try await client.secured(deployment.federated.securedQueryURL(.cities), token: serverToken).jsonObject().errorCode == 498)
            #expect(try await client.secured(deployment.federated.securedQueryURL(.cities), token: serverToken, referer: referer).jsonObject().countResult != nil)
            let missing = try await deployment.portalToken(client, extra: [("client", "referer")])
            #expect(missing.errorCode == 400)
            deployment.authority.updateKnobs { $0.enforcesReferer = false }
            #expect(try await client.secured(secured, token: token).jsonObject().countResult != nil)
            deployment.authority.updateKnobs { $0.requiresRefererClient = true }
            #expect(try await deployment.portalToken(client).errorCode == 400)
            #expect(try await deployment.portalToken(client, extra: [("client", "requestip")]).errorCode == 400)
            #expect(try await deployment.portalToken(client, extra: [("client", "referer"), ("referer", referer)]).token != nil)
        }
    }

    @Test("ssl and clock skew change what token responses say")
    func sslAndSkew() async throws {
        try await SecuredDeployment.with(knobs: SampleSecurityKnobs(ssl: true, clockSkewSeconds: -600)) { (deployment, client) async throws in
            let before = nowMilliseconds()
            let answer = try await deployment.portalToken(client)
            let after = nowMilliseconds()
            #expect(answer.bool("ssl") == true)
            let expires = try #require(answer.int64("expires"))
            // An hour's token reported as expiring 10 minutes early.
            #expect(expires >= before + 50 * 60_000 - 1_000 && expires <= after + 50 * 60_000 + 1_000)
            let app = try await client.form(
                deployment.oauthURL + "/token", [("client_id", "sample-app"), ("client_secret", "sample-app-secret"), ("grant_type", "client_credentials")]
            ).jsonObject()
            #expect(app.bool("ssl") == true)
        }
    }

    @Test("forced rejections come in each shape, then requests pass again")
    func forcedRejections() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let token = try #require(try await deployment.portalToken(client).token)
            let secured = deployment.portal.securedQueryURL(.cities)
            deployment.authority.rejectNext(2, code: 498, shape: .errorBody)
            deployment.authority.rejectNext(1, code: 499, shape: .httpStatus)
            deployment.authority.rejectNext(1, code: 498, shape: .admin)
            deployment.authority.rejectNext(1, code: 403, shape: .httpStatus)
            for _ in 0..<2 {
                let body = try await client.secured(secured, token: token)
                let code = try body.jsonObject().errorCode
                #expect(body.status == 200 && code == 498)
            }
            let status = try await client.secured(secured, token: token)
            let statusCode = try status.jsonObject().errorCode
            #expect(status.status == 499 && statusCode == 499)
            let admin = try await client.secured(secured, token: token).jsonObject()
            #expect(admin["status"] as? String == "error" && admin["messages"] as? [String] == ["Token Expired."] && admin.int("code") == 498)
            #expect(try await client.secured(secured, token: token).status == 403)
            #expect(try await client.secured(secured, token: token).jsonObject().countResult != nil)
            // Public paths are never rejected.
            deployment.authority.rejectNext(1)
            #expect(try await client.secured(deployment.portal.queryURL(.cities), token: nil).jsonObject().countResult != nil)
            #expect(try await client.secured(secured, token: token).jsonObject().errorCode == 498)
            let counters = deployment.authority.counters
            #expect(counters.forcedRejections == 6 && counters.rejected(498) == 4 && counters.rejected(499) == 1 && counters.rejected(403) == 1)
            #expect(counters.accepted == 1)
        }
    }

    @Test("revoking every token: the next secured request gets 498, a new token works")
    func revokeAll() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let token = try #require(try await deployment.portalToken(client).token)
            let secured = deployment.portal.securedQueryURL(.cities)
            #expect(try await client.secured(secured, token: token).jsonObject().countResult != nil)
            deployment.authority.revokeAllTokens()
            #expect(deployment.authority.issuedTokenCount == 0)
            #expect(try await client.secured(secured, token: token).jsonObject().errorCode == 498)
            let fresh = try #require(try await deployment.portalToken(client).token)
            #expect(try await client.secured(secured, token: fresh).jsonObject().countResult != nil)
        }
    }

    @Test("a changed password: the old one is refused, the new one signs in")
    func passwordChange() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            deployment.authority.setUser(SampleUser(username: "viewer", password: "rotated"))
            #expect(try await deployment.portalToken(client).errorDetails == ["Invalid username or password."])
            #expect(try await deployment.portalToken(client, password: "rotated").token != nil)
            deployment.authority.resetCounters()
            #expect(deployment.authority.counters == SampleSecurityCounters())
        }
    }

    @Test("faults reach the token endpoints: a 503 on oauth2/token is the token service being unavailable")
    func tokenServiceFault() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            deployment.portal.addFault(FaultRule(.http503(retryAfterSeconds: 1), pathContains: "/oauth2/token", trigger: .always))
            let fields = [("client_id", "sample-app"), ("client_secret", "sample-app-secret"), ("grant_type", "client_credentials")]
            #expect(try await client.form(deployment.oauthURL + "/token", fields).status == 503)
            #expect(deployment.authority.counters.oauthToken("client_credentials") == 0)
            deployment.portal.setFaults([])
            #expect(try await client.form(deployment.oauthURL + "/token", fields).jsonObject().accessToken != nil)
        }
    }

    @Test("securesEverything puts the public tree behind a token too, but not rest/info")
    func securesEverything() async throws {
        let authority = SampleTokenAuthority()
        let configuration = SampleServerConfiguration(security: SampleSecurity(authority: authority, role: .standalone, securesEverything: true))
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            #expect(try await client.secured(server.queryURL(.cities), token: nil).jsonObject().errorCode == 499)
            #expect(try await client.secured(server.baseURL, [("f", "json")], token: nil).jsonObject().errorCode == 499)
            #expect(try await client.json(server.rootURL + "/arcgis/rest/info", [("f", "json")])["authInfo"] != nil)
            let token = try #require(try await client.form(
                server.rootURL + "/arcgis/tokens/generateToken", [("username", "viewer"), ("password", "viewer-password")]).jsonObject().token)
            #expect(try await client.secured(server.queryURL(.cities), token: token).jsonObject().countResult != nil)
            #expect(try await client.secured(server.securedQueryURL(.cities), token: token).jsonObject().countResult != nil)
            // No portal here.
            #expect(try await client.form(server.rootURL + "/portal/sharing/rest/generateToken", [("username", "viewer")]).status == 404)
            #expect(server.portalURL == nil && authority.portalURL == nil)
        }
    }

    @Test("after the lockout's wrong passwords the right one is refused too, until the user is set again")
    func lockout() async throws {
        try await SecuredDeployment.with(knobs: SampleSecurityKnobs(lockoutAfterWrongPasswords: 2)) { (deployment, client) async throws in
            #expect(try await deployment.portalToken(client, password: "wrong").errorDetails == ["Invalid username or password."])
            #expect(try await deployment.portalToken(client).token != nil)  // a success ends the streak
            for _ in 0..<2 { _ = try await deployment.portalToken(client, password: "wrong") }
            let locked = try await deployment.portalToken(client)
            #expect(locked.token == nil && locked.errorCode == 400)
            #expect(locked.errorDetails == ["Too many invalid logon attempts. Please try again later."])
            #expect(try await deployment.portalToken(client, username: "outsider", password: "outsider-password").token != nil)
            #expect(deployment.authority.counters.wrongPasswords == 3 && deployment.authority.counters.lockedOut == 1)
            deployment.authority.setUser(SampleUser(username: "viewer", password: "viewer-password"))
            #expect(try await deployment.portalToken(client).token != nil)
        }
    }

    @Test("an API key opens the secured services of every server of its authority; an expired key gets 498")
    func apiKeys() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            deployment.authority.addAPIKey("key-1")
            for server in [deployment.portal, deployment.federated, deployment.standalone] {
                #expect(try await client.secured(server.securedQueryURL(.cities), token: "key-1").jsonObject().countResult != nil)
            }
            #expect(try await client.secured(deployment.otherFederated.securedQueryURL(.cities), token: "key-1").jsonObject().errorCode == 498)
            let ogc = deployment.portal.securedOGCURL + "/collections/USA_Cities/items"
            #expect(try await client.secured(ogc, [("limit", "1")], token: "key-1").status == 200)
            deployment.authority.expireAPIKey("key-1")
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: "key-1").jsonObject().errorCode == 498)
            #expect(try await client.secured(ogc, [("limit", "1")], token: "key-1").status == 401)
            let defaultKey = SampleTokenAuthority.defaultAPIKey
            #expect(try await client.secured(deployment.federated.securedQueryURL(.cities), token: defaultKey).jsonObject().countResult != nil)
        }
    }
}
