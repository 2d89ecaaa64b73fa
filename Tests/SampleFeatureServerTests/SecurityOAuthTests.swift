import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Security: OAuth authorization code with PKCE, refresh, exchange and revoke")
struct SecurityOAuthTests {
    static let redirect = "http://127.0.0.1:8765/callback"
    /// A verifier and its S256 challenge, computed independently (Python's hashlib and base64).
    static let verifier = "dBjftJeZ4CVP-mJ92K1s-c9_--7bvN4qS7-O9ZKYfqw"
    static let challenge = "8K_u1nB6U1gSL43vJXbTHAFDeFuuIoD65dH0CEMDxig"

    /// Runs `oauth2/authorize` and returns the redirect's query parameters.
    static func authorize(
        _ deployment: SecuredDeployment, _ client: HTTPClient, clientID: String = "sample-public-app", redirect: String = redirect,
        extra: [(String, String)] = []
    ) async throws -> (response: HTTPResponse, query: [String: String]) {
        let response = try await client.get(
            deployment.oauthURL + "/authorize",
            [("client_id", clientID), ("response_type", "code"), ("redirect_uri", redirect), ("code_challenge", challenge),
             ("code_challenge_method", "S256"), ("state", "s 1&x")] + extra)
        var query: [String: String] = [:]
        if let location = response.headers["Location"], let components = URLComponents(string: location) {
            for item in components.queryItems ?? [] { query[item.name] = item.value }
        }
        return (response, query)
    }

    static func redeem(_ deployment: SecuredDeployment, _ client: HTTPClient, code: String, verifier: String = verifier) async throws -> [String: Any] {
        try await client.form(
            deployment.oauthURL + "/token",
            [("client_id", "sample-public-app"), ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirect),
             ("code_verifier", verifier), ("f", "json")]
        ).jsonObject()
    }

    @Test("the PKCE verifier is checked (S256: SHA-256 and base64url)")
    func pkce() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let (response, query) = try await Self.authorize(deployment, client)
            #expect(response.status == 302)
            #expect(response.headers["Location"]?.hasPrefix(Self.redirect + "?code=") == true)
            #expect(query["state"] == "s 1&x")
            let code = try #require(query["code"])
            let wrong = try await Self.redeem(deployment, client, code: code, verifier: Self.verifier + "x")
            #expect(wrong.oauthError == "invalid_grant" && wrong.accessToken == nil)
            // A code is redeemed once, even after a failed attempt.
            #expect(try await Self.redeem(deployment, client, code: code).oauthError == "invalid_grant")
            let fresh = try #require(try await Self.authorize(deployment, client).query["code"])
            let session = try await Self.redeem(deployment, client, code: fresh)
            let access = try #require(session.accessToken)
            #expect(session.refreshToken != nil && session["username"] as? String == "viewer")
            #expect(session.int("expires_in") == 3600 && session.int("refresh_token_expires_in") == 14 * 24 * 3600)
            #expect(session.bool("ssl") == false)
            var headers = HTTPHeaders()
            headers.add("Authorization", "Bearer " + access)
            let count = countQuery.map { $0.0 + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
            let answer = try await client.execute(HTTPRequest(url: deployment.portal.securedQueryURL(.cities) + "?" + count, headers: headers))
            #expect(try answer.jsonObject().countResult != nil)
            #expect(deployment.authority.counters.oauthToken("authorization_code") == 3)
            #expect(deployment.authority.counters.authorize == 2)
        }
    }

    @Test("authorize refuses unregistered redirects with a page, and bad requests by redirecting with an error")
    func authorizeErrors() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let unregistered = try await Self.authorize(deployment, client, redirect: "http://127.0.0.1:8765/callback/")
            #expect(unregistered.response.status == 400 && unregistered.response.headers["Location"] == nil)
            let unknown = try await Self.authorize(deployment, client, clientID: "nobody")
            #expect(unknown.response.status == 400)
            let plain = try await client.get(
                deployment.oauthURL + "/authorize",
                [("client_id", "sample-public-app"), ("response_type", "code"), ("redirect_uri", Self.redirect), ("code_challenge", "abc"),
                 ("code_challenge_method", "plain")])
            #expect(plain.status == 302 && plain.headers["Location"]?.contains("error=invalid_request") == true)
            let denied = try await Self.authorize(deployment, client, extra: [("deny", "true")])
            #expect(denied.query["error"] == "access_denied" && denied.query["code"] == nil)
            let oob = try await Self.authorize(deployment, client, redirect: "urn:ietf:wg:oauth:2.0:oob")
            #expect(oob.response.status == 200 && oob.response.bodyString.contains("<code id=\"code\">"))
        }
    }

    @Test("without auto-approval the sign-in form needs the user's password")
    func signInForm() async throws {
        try await SecuredDeployment.with(knobs: SampleSecurityKnobs(autoApprove: false)) { (deployment, client) async throws in
            let form = try await Self.authorize(deployment, client)
            #expect(form.response.status == 200 && form.response.bodyString.contains("name=\"password\""))
            let wrong = try await Self.authorize(deployment, client, extra: [("username", "viewer"), ("password", "x")])
            #expect(wrong.response.status == 200 && wrong.query["code"] == nil)
            let signedIn = try await Self.authorize(deployment, client, extra: [("username", "outsider"), ("password", "outsider-password")])
            let code = try #require(signedIn.query["code"])
            let session = try await Self.redeem(deployment, client, code: code)
            #expect(session["username"] as? String == "outsider")
            // outsider may sign in, but the secured services answer 403.
            let access = try #require(session.accessToken)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: access).jsonObject().errorCode == 403)
            #expect(deployment.authority.counters.rejected(403) == 1 && deployment.authority.counters.wrongPasswords == 1)
        }
    }

    @Test("refresh_token, exchange_refresh_token (a new refresh token) and revokeToken")
    func refreshAndRevoke() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let code = try #require(try await Self.authorize(deployment, client).query["code"])
            let session = try await Self.redeem(deployment, client, code: code)
            let refresh = try #require(session.refreshToken)
            let url = deployment.oauthURL + "/token"
            let refreshed = try await client.form(url, [("client_id", "sample-public-app"), ("grant_type", "refresh_token"), ("refresh_token", refresh)]).jsonObject()
            let access = try #require(refreshed.accessToken)
            #expect(refreshed.refreshToken == nil && refreshed["username"] as? String == "viewer")
            let exchanged = try await client.form(
                url, [("client_id", "sample-public-app"), ("grant_type", "exchange_refresh_token"), ("refresh_token", refresh)]).jsonObject()
            let newRefresh = try #require(exchanged.refreshToken)
            #expect(newRefresh != refresh && exchanged.accessToken != nil && exchanged.int("refresh_token_expires_in") != nil)
            let old = try await client.form(url, [("client_id", "sample-public-app"), ("grant_type", "refresh_token"), ("refresh_token", refresh)]).jsonObject()
            #expect(old.errorCode == 400 && old.oauthError == "invalid_request")
            // Another client cannot use the refresh token.
            let stolen = try await client.form(url, [("client_id", "sample-app"), ("grant_type", "refresh_token"), ("refresh_token", newRefresh)]).jsonObject()
            #expect(stolen.errorCode == 400)
            let second = try #require(try await client.form(
                url, [("client_id", "sample-public-app"), ("grant_type", "refresh_token"), ("refresh_token", newRefresh)]).jsonObject().accessToken)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: second).jsonObject().countResult != nil)
            let revoked = try await client.form(
                deployment.oauthURL + "/revokeToken", [("client_id", "sample-public-app"), ("auth_token", newRefresh), ("f", "json")]).jsonObject()
            #expect(revoked.bool("success") == true)
            // The access token refreshed from it goes with it; one from the older refresh token does not.
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: second).jsonObject().errorCode == 498)
            #expect(try await client.secured(deployment.portal.securedQueryURL(.cities), token: access).jsonObject().countResult != nil)
            let after = try await client.form(url, [("client_id", "sample-public-app"), ("grant_type", "refresh_token"), ("refresh_token", newRefresh)]).jsonObject()
            #expect(after.errorCode == 400)
            let counters = deployment.authority.counters
            #expect(counters.revoke == 1 && counters.oauthToken("refresh_token") == 5 && counters.oauthToken("exchange_refresh_token") == 1)
        }
    }

    @Test("an expired refresh token is answered with 498 by the token endpoint")
    func expiredRefreshToken() async throws {
        try await SecuredDeployment.with(knobs: SampleSecurityKnobs(refreshTokenLifetimeSeconds: 1)) { (deployment, client) async throws in
            let code = try #require(try await Self.authorize(deployment, client).query["code"])
            let refresh = try #require(try await Self.redeem(deployment, client, code: code).refreshToken)
            try await Task.sleep(for: .milliseconds(1_200))
            let answer = try await client.form(
                deployment.oauthURL + "/token", [("client_id", "sample-public-app"), ("grant_type", "refresh_token"), ("refresh_token", refresh)])
            #expect(answer.status == 200)
            let body = try answer.jsonObject()
            #expect(body.errorCode == 498 && body.errorMessage == "refresh_token expired" && body.oauthError == "invalid_request")
        }
    }
}
