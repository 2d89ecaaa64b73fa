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
            #expect(try await client.secured(secured, token: token).jsonObject().countResult != nil)
            try await Task.sleep(for: .milliseconds(2_200))
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
            let answer = try await deployment.portalToken(client)
            #expect(answer.bool("ssl") == true)
            let expires = try #require(answer.int64("expires"))
            // An hour's token reported as expiring 10 minutes early.
            #expect(abs(expires - (nowMilliseconds() + 50 * 60_000)) < 5_000)
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
}
