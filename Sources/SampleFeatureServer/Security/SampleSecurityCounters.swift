/// What an authority's token services and secured servers have done: tests and benchmarks count token
/// calls (a client that refreshes once for 50 concurrent 498s shows 1 here, not 50) and rejections.
package struct SampleSecurityCounters: Sendable, Hashable {
    /// Portal `generateToken` calls with a username and password (failed ones included).
    package var generateToken = 0
    /// Portal `generateToken` calls exchanging a portal token for a server token (`token` + `serverUrl`).
    package var exchange = 0
    /// A standalone server's own `/arcgis/tokens/generateToken` calls.
    package var serverGenerateToken = 0
    /// `oauth2/token` calls per `grant_type` as sent (`client_credentials`, `authorization_code`,
    /// `refresh_token`, `exchange_refresh_token`, or whatever else a client sent).
    package var oauthToken: [String: Int] = [:]
    /// `oauth2/authorize` requests.
    package var authorize = 0
    /// `oauth2/revokeToken` calls.
    package var revoke = 0
    /// Token requests refused for a wrong username or password.
    package var wrongPasswords = 0
    /// Token requests refused because the user is locked out (the lockout knob).
    package var lockedOut = 0
    /// Secured requests refused, per code sent (498, 499, 403), forced rejections included.
    package var rejected: [Int: Int] = [:]
    /// Of those, the ones forced by ``SampleTokenAuthority/rejectNext(_:code:shape:)``.
    package var forcedRejections = 0
    /// Secured requests let through.
    package var accepted = 0
    /// `/ogc-secured` requests refused with 401.
    package var ogcUnauthorized = 0

    package init() {}

    /// `oauth2/token` calls for one grant type.
    package func oauthToken(_ grant: String) -> Int { oauthToken[grant] ?? 0 }

    /// Rejections sent with one code.
    package func rejected(_ code: Int) -> Int { rejected[code] ?? 0 }

    /// Every call to a token endpoint (generateToken, exchange, standalone generateToken, oauth2/token).
    package var tokenCalls: Int { generateToken + exchange + serverGenerateToken + oauthToken.values.reduce(0, +) }
}
