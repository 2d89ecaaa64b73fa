import Authentication
import Credentials
import CurlHTTP
import Testing

@Suite("Token answers and their failures")
struct TokenResponseTests {
    private let password = TokenCall(credential: "gis", url: "https://portal.example.com/portal/sharing/rest/generateToken", purpose: .password)
    private let refresh = TokenCall(credential: "user", url: "https://portal.example.com/portal/sharing/rest/oauth2/token", purpose: .refresh)

    private func response(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [:], body: Array(body.utf8), url: "https://example.com/token", httpVersion: "1.1")
    }

    private func failure(_ status: Int, _ body: String, _ call: TokenCall) -> TokenFailure? {
        do {
            _ = try TokenResponseReader.read(response(status, body), call: call)
            return nil
        } catch {
            return error
        }
    }

    @Test("generateToken's token, expiry and ssl; OAuth's access_token and expires_in")
    func successes() throws {
        let arcgis = try TokenResponseReader.read(response(200, #"{"token":"t-1","expires":1764115200000,"ssl":true}"#), call: password)
        #expect(arcgis.token == Secret("t-1"))
        #expect(arcgis.expiresAtMilliseconds == 1_764_115_200_000)
        #expect(arcgis.requiresTLS)
        let oauth = try TokenResponseReader.read(response(200, #"{"access_token":"a-1","expires_in":1800}"#), call: refresh)
        #expect(oauth.token == Secret("a-1"))
        #expect(oauth.expiryMilliseconds(nowMilliseconds: 1_000) == 1_801_000)
        #expect(!oauth.requiresTLS)
        let now = ContinuousClock.now
        #expect(oauth.serverExpiry(now: now, nowMilliseconds: 5_000) == now + .seconds(1800))
    }

    @Test("a wrong password (HTTP 200, error code 400) is terminal credential_rejected and quotes nothing")
    func wrongPassword() throws {
        let body = #"{"error":{"code":400,"message":"Unable to generate token.","details":["Invalid username or password."]}}"#
        let failure = try #require(self.failure(200, body, password))
        #expect(failure.code == .credentialRejected)
        #expect(!failure.isRetryable)
        #expect(failure.message.contains("\"gis\""))
        #expect(!failure.message.contains("Invalid username"))
    }

    @Test("5xx, 429, error code 500 and transport-like answers are retryable token_service_unavailable")
    func outages() throws {
        for (status, body) in [(503, "down"), (429, ""), (200, #"{"error":{"code":500,"message":"x"}}"#), (200, "<html>"), (200, #"{"ok":1}"#)] {
            let failure = try #require(self.failure(status, body, password))
            #expect(failure.code == .tokenServiceUnavailable, "\(status) \(body)")
            #expect(failure.isRetryable)
        }
    }

    @Test("an OAuth error object or name refuses the client; a refresh answered 498 or invalid_grant needs a new login")
    func oauthErrors() throws {
        let client = TokenCall(credential: "svc", url: "https://idp.example.com/token", purpose: .client)
        #expect(failure(401, #"{"error":"invalid_client","error_description":"secret marker-xyz is wrong"}"#, client)?.code == .credentialRejected)
        #expect(failure(401, #"{"error":"invalid_client","error_description":"secret marker-xyz"}"#, client)?.message.contains("marker-xyz") == false)
        #expect(failure(200, #"{"error":{"code":400,"error":"invalid_client","message":"Invalid client_id"}}"#, client)?.code == .credentialRejected)
        #expect(failure(200, #"{"error":{"code":498,"error":"invalid_request","message":"Invalid refresh_token"}}"#, refresh)?.code == .reloginRequired)
        #expect(failure(498, "", refresh)?.code == .reloginRequired)
        #expect(failure(400, #"{"error":"invalid_grant"}"#, refresh)?.code == .reloginRequired)
        #expect(failure(400, #"{"error":"temporarily_unavailable"}"#, client)?.code == .tokenServiceUnavailable)
        // The admin API's shape.
        #expect(failure(200, #"{"status":"error","messages":["Token Expired."],"code":498}"#, refresh)?.code == .reloginRequired)
    }
}
