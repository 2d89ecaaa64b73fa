import Credentials
package import CurlHTTP
import FeatureQuerySupport

/// Which token call an answer belongs to: decides how a refusal is named and what the operator is told.
package struct TokenCall: Sendable, Hashable {
    package enum Purpose: Sendable, Hashable {
        /// `generateToken` with a username and password.
        case password
        /// `generateToken` with a portal token and `serverUrl`: the federated server's token.
        case serverExchange(server: String)
        /// `client_credentials`.
        case client
        /// `refresh_token` or `exchange_refresh_token`.
        case refresh
        /// `authorization_code` (`login`).
        case authorizationCode
        /// `oauth2/revokeToken` (`logout`, a removed `oauthUser`).
        case revoke
    }

    package var credential: String
    /// The endpoint called (no query, no secret).
    package var url: String
    package var purpose: Purpose

    package init(credential: String, url: String, purpose: Purpose) {
        self.credential = credential
        self.url = url
        self.purpose = purpose
    }
}

/// Reads token endpoints' answers and sorts their failures into ``TokenFailure`` codes, on codes only (HTTP
/// statuses, ArcGIS `error.code`, OAuth `error` names), never on message text, and without quoting the answer:
/// a server's message could echo what was sent.
package enum TokenResponseReader {
    /// OAuth error names (RFC 6749 §5.2) that mean the client or grant was refused, not that the service failed.
    private static let refusals: Set<String> = [
        "invalid_client", "unauthorized_client", "invalid_grant", "invalid_scope", "invalid_request", "access_denied",
        "unsupported_grant_type",
    ]
    private static let outages: Set<String> = ["server_error", "temporarily_unavailable"]

    /// The token in `response`, or the failure it reports.
    package static func read(_ response: HTTPResponse, call: TokenCall) throws(TokenFailure) -> TokenResponse {
        let json = try? ParsedJSON(reading: response.body)
        if let failure = failure(status: response.status, json: json, call: call) { throw failure }
        guard let json, let token = nonEmptyString(json["token"]) ?? nonEmptyString(json["access_token"]) else {
            throw unavailable(call, "answered HTTP \(response.status) without a token")
        }
        return TokenResponse(
            token: Secret(token),
            expiresAtMilliseconds: integer(json["expires"]),
            expiresInSeconds: integer(json["expires_in"]),
            requiresTLS: json["ssl"] == .bool(true),
            refreshToken: nonEmptyString(json["refresh_token"]).map(Secret.init),
            refreshTokenExpiresInSeconds: integer(json["refresh_token_expires_in"]),
            username: nonEmptyString(json["username"]))
    }

    /// Whether a call that returns nothing (`revokeToken`) succeeded; the failure otherwise.
    package static func check(_ response: HTTPResponse, call: TokenCall) throws(TokenFailure) {
        let json = try? ParsedJSON(reading: response.body)
        if let failure = failure(status: response.status, json: json, call: call) { throw failure }
    }

    /// The failure an answer reports, if any. ArcGIS reports most errors as HTTP 200 with `{"error":{"code":…}}`
    /// (or the admin shape `{"status":"error","code":…}`); OAuth endpoints as HTTP 400/401 with `{"error":"name"}`.
    static func failure(status: Int, json: ParsedJSON?, call: TokenCall) -> TokenFailure? {
        var arcgisCode: Int?
        var oauthError: String?
        switch json?["error"] {
        case .object(let members)?:
            arcgisCode = integer(members["code"]).map(Int.init)
            oauthError = nonEmptyString(members["error"])
        case .string(let name)?:
            oauthError = name
        default:
            if json?["status"] == .string("error") { arcgisCode = integer(json?["code"]).map(Int.init) }
        }
        let isError = status >= 400 || arcgisCode != nil || oauthError != nil
        guard isError else { return nil }
        let code = arcgisCode ?? status
        let detail = "HTTP \(status)" + (arcgisCode.map { ", error code \($0)" } ?? "") + (oauthError.map { ", \(sanitized($0))" } ?? "")
        if status >= 500 || status == 429 || code >= 500 || outages.contains(oauthError ?? "") {
            return unavailable(call, "failed (\(detail))")
        }
        // A refresh sends every parameter it needs, so an invalid request, like an invalid grant, is about the
        // refresh token (unknown, revoked: ArcGIS answers 400 `invalid_request`; expired: 498).
        if call.purpose == .refresh, code == 498 || oauthError == "invalid_grant" || oauthError == "invalid_request" {
            return TokenFailure(code: .reloginRequired, message: reloginMessage(call), isRetryable: false)
        }
        if (400..<500).contains(code) || refusals.contains(oauthError ?? "") || status == 498 {
            return rejected(call, detail)
        }
        return unavailable(call, "answered an error (\(detail))")
    }

    /// The token service could not be used: retryable.
    package static func unavailable(_ call: TokenCall, _ what: String) -> TokenFailure {
        TokenFailure(
            code: .tokenServiceUnavailable,
            message: "the token service \(call.url) for credential \"\(call.credential)\" \(what); it will be tried again",
            isRetryable: true)
    }

    static func reloginMessage(_ call: TokenCall) -> String {
        "the refresh token of credential \"\(call.credential)\" has expired or was revoked: run "
            + "`query-worker login --credential \(call.credential)` to sign in again"
    }

    private static func rejected(_ call: TokenCall, _ detail: String) -> TokenFailure {
        let what: String
        switch call.purpose {
        case .password: what = "refused the username and password (\(detail)): check the credential's username and password secret"
        case .serverExchange(let server):
            what = "refused to exchange the portal token for a token of \(server) (\(detail)): check that the server is federated with this portal"
        case .client: what = "refused the client (\(detail)): check the credential's clientId and clientSecret"
        case .refresh: what = "refused the refresh token (\(detail)): check clientId, or run `query-worker login --credential \(call.credential)`"
        case .authorizationCode: what = "refused the authorization code (\(detail)): check clientId and the registered redirect URI, then sign in again"
        case .revoke: what = "refused to revoke the refresh token (\(detail))"
        }
        return TokenFailure(
            code: .credentialRejected, message: "the token service \(call.url) \(what) (credential \"\(call.credential)\")",
            isRetryable: false)
    }

    /// An OAuth error name as it may be shown: only its token characters, at most 40.
    private static func sanitized(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }.prefix(40).map(Character.init))
    }

    private static func nonEmptyString(_ json: ParsedJSON?) -> String? {
        guard case .string(let text)? = json, !text.isEmpty else { return nil }
        return text
    }

    private static func integer(_ json: ParsedJSON?) -> Int64? {
        switch json {
        case .number(let value)? where value.rounded() == value && abs(value) < 1e15: Int64(value)
        case .string(let text)?: Int64(text)
        default: nil
        }
    }
}

extension TokenResponseReader {
    /// A refresh token in an answer that must carry one (`exchange_refresh_token`, `authorization_code`), with
    /// its lifetime in ``TokenResponse/expiresInSeconds``; the access token, if any, is not needed.
    package static func readRefreshToken(_ response: HTTPResponse, call: TokenCall) throws(TokenFailure) -> TokenResponse {
        let json = try? ParsedJSON(reading: response.body)
        if let failure = failure(status: response.status, json: json, call: call) { throw failure }
        guard let json, case .string(let token)? = json["refresh_token"], !token.isEmpty else {
            throw unavailable(call, "answered HTTP \(response.status) without a refresh token")
        }
        var expiresIn: Int64?
        if case .number(let seconds)? = json["refresh_token_expires_in"], seconds.rounded() == seconds, seconds > 0, seconds < 1e12 {
            expiresIn = Int64(seconds)
        }
        var username: String?
        if case .string(let name)? = json["username"], !name.isEmpty { username = name }
        return TokenResponse(
            token: Secret(token), expiresAtMilliseconds: nil, expiresInSeconds: expiresIn, requiresTLS: json["ssl"] == .bool(true),
            refreshToken: nil, refreshTokenExpiresInSeconds: nil, username: username)
    }
}
