import FeatureQuerySupport

/// Who a token is for: the portal (portal tokens and OAuth access tokens) or one server, by origin
/// (`http://127.0.0.1:PORT`), for exchanged and standalone server tokens.
enum TokenAudience: Sendable, Hashable {
    case portal
    case server(String)
}

/// A token the authority issued.
struct IssuedAccessToken: Sendable {
    var audience: TokenAudience
    var username: String
    /// The referer it is bound to (generateToken with `client=referer`), nil when unbound.
    var referer: String?
    var expiresAt: Int64
    /// The refresh token it came from, so revoking that one revokes this one too.
    var refreshToken: String?
}

/// A refresh token and whose it is.
struct IssuedRefreshToken: Sendable {
    var clientID: String
    var username: String
    var expiresAt: Int64
}

/// An authorization code waiting to be redeemed once.
struct PendingCode: Sendable {
    var clientID: String
    var redirectURI: String
    var challenge: String
    var username: String
    var expiresAt: Int64
}

/// Rejections forced on the next secured requests.
struct ForcedRejection: Sendable, Hashable {
    var remaining: Int
    var code: Int
    var shape: SampleRejectionShape
}

/// A token endpoint's refusal: an ArcGIS error body (HTTP 200 unless ``status`` says otherwise), with
/// OAuth's `error`/`error_description` when ``oauthError`` is set.
struct TokenEndpointError: Error, Sendable, Hashable {
    var code: Int
    var message: String
    var details: [String] = []
    var oauthError: String?
    var status = 200

    static let wrongPassword = TokenEndpointError(
        code: 400, message: "Unable to generate token.", details: ["Invalid username or password."])

    static let lockedOut = TokenEndpointError(
        code: 400, message: "Unable to generate token.", details: ["Too many invalid logon attempts. Please try again later."])

    static func unableToGenerate(_ detail: String) -> TokenEndpointError {
        TokenEndpointError(code: 400, message: "Unable to generate token.", details: [detail])
    }

    static func oauth(_ error: String, _ description: String, code: Int = 400) -> TokenEndpointError {
        TokenEndpointError(code: code, message: description, oauthError: error)
    }
}

/// What a secured request is answered with when refused.
struct SecurityRefusal: Sendable, Hashable {
    var code: Int
    var shape: SampleRejectionShape
}

/// Everything an authority holds, behind its mutex. Times are wall-clock epoch milliseconds.
struct AuthorityState: Sendable {
    var users: [String: SampleUser]
    var clients: [String: SampleOAuthClient]
    var knobs: SampleSecurityKnobs
    var counters = SampleSecurityCounters()
    var tokens: [String: IssuedAccessToken] = [:]
    var refreshTokens: [String: IssuedRefreshToken] = [:]
    var codes: [String: PendingCode] = [:]
    var forced: [ForcedRejection] = []
    /// ArcGIS API keys the secured services take in place of a token: true while valid, false once expired.
    var apiKeys: [String: Bool] = [:]
    /// Wrong passwords in a row, per user (for the lockout knob).
    var failedSignIns: [String: Int] = [:]
    /// The origin of the server playing the portal, once it listens.
    var portalOrigin: String?
    /// Origins of the servers federated with the portal (the portal's own origin included once it listens).
    var federatedOrigins: Set<String> = []

    /// A token's lifetime in milliseconds: what was asked (minutes), at most the knob, at least 1 s.
    func lifetime(requestedMinutes: Int?) -> Int64 {
        let maximum = max(1, knobs.tokenLifetimeSeconds)
        let asked = requestedMinutes.map { $0 > 0 ? min($0, Int.max / 60) * 60 : maximum } ?? maximum
        return Int64(min(asked, maximum)) * 1000
    }

    /// Checks a password; counts a wrong one. With the lockout knob, a user with that many wrong passwords in
    /// a row is refused even with the right one until ``SampleTokenAuthority/setUser(_:)`` or a counter reset.
    mutating func signIn(username: String?, password: String?) throws(TokenEndpointError) -> SampleUser {
        let limit = knobs.lockoutAfterWrongPasswords
        if let username, limit > 0, failedSignIns[username, default: 0] >= limit {
            counters.lockedOut += 1
            throw .lockedOut
        }
        guard let username, let password, let user = users[username], user.password == password else {
            counters.wrongPasswords += 1
            if let username { failedSignIns[username, default: 0] += 1 }
            throw .wrongPassword
        }
        failedSignIns[username] = nil
        return user
    }

    /// Mints an access or server token.
    mutating func mint(
        audience: TokenAudience, username: String, referer: String?, lifetime: Int64, refreshToken: String? = nil
    ) -> (token: String, expiresAt: Int64) {
        let token = Base64URL.random(bytes: 36)
        let expiresAt = WallClock.nowMilliseconds() + lifetime
        tokens[token] = IssuedAccessToken(
            audience: audience, username: username, referer: referer, expiresAt: expiresAt, refreshToken: refreshToken)
        return (token, expiresAt)
    }

    /// A live token, or nil when unknown, revoked or expired.
    func live(_ token: String) -> IssuedAccessToken? {
        guard let issued = tokens[token], issued.expiresAt > WallClock.nowMilliseconds() else { return nil }
        return issued
    }

    /// Decides a secured request: a forced rejection first, then 499 without a token, 498 for a token that is
    /// unknown, expired, revoked, for another audience or presented without its referer, 403 for a user
    /// without permission. Counts what it decides.
    mutating func check(token: String?, referer: String?, accepts audiences: [TokenAudience]) -> SecurityRefusal? {
        let refusal = decide(token: token, referer: referer, accepts: audiences)
        if let refusal {
            counters.rejected[refusal.code, default: 0] += 1
        } else {
            counters.accepted += 1
        }
        return refusal
    }

    private mutating func decide(token: String?, referer: String?, accepts audiences: [TokenAudience]) -> SecurityRefusal? {
        if let index = forced.indices.first {
            let rejection = forced[index]
            if rejection.remaining <= 1 { forced.remove(at: index) } else { forced[index].remaining -= 1 }
            counters.forcedRejections += 1
            return SecurityRefusal(code: rejection.code, shape: rejection.shape)
        }
        guard let token else { return SecurityRefusal(code: 499, shape: .errorBody) }
        if let valid = apiKeys[token] { return valid ? nil : SecurityRefusal(code: 498, shape: .errorBody) }
        guard let issued = live(token), audiences.contains(issued.audience) else { return SecurityRefusal(code: 498, shape: .errorBody) }
        if knobs.enforcesReferer, let bound = issued.referer, bound != referer { return SecurityRefusal(code: 498, shape: .errorBody) }
        if users[issued.username]?.permitted == false { return SecurityRefusal(code: 403, shape: .errorBody) }
        return nil
    }
}
