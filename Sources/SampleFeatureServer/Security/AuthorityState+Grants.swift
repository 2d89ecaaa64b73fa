import FeatureQuerySupport

/// A generateToken answer: `{"token":...,"expires":<epoch ms>,"ssl":...}`.
struct GeneratedToken: Sendable, Hashable {
    var token: String
    /// Reported expiry, clock skew included.
    var expires: Int64
    var ssl: Bool
}

/// An `oauth2/token` answer.
struct OAuthTokenAnswer: Sendable, Hashable {
    var accessToken: String
    var expiresIn: Int
    var username: String?
    var ssl: Bool
    var refreshToken: String?
    var refreshTokenExpiresIn: Int?
}

/// The token grants: generateToken (password and exchange) and the OAuth grants.
extension AuthorityState {
    /// generateToken with a username and password, for the portal or a standalone server.
    mutating func generateToken(_ parameters: RequestParameters, audience: TokenAudience) throws(TokenEndpointError) -> GeneratedToken {
        let user = try signIn(username: parameters["username"], password: parameters["password"])
        let referer = try bindingReferer(parameters)
        let lifetime = lifetime(requestedMinutes: try expiration(parameters))
        let minted = mint(audience: audience, username: user.username, referer: referer, lifetime: lifetime)
        return reported(minted)
    }

    /// generateToken `token=<portal token>&serverUrl=<server root>`: a server token for a federated server,
    /// living no longer than the portal token.
    mutating func exchange(_ parameters: RequestParameters, refererHeader: String?) throws(TokenEndpointError) -> GeneratedToken {
        guard let portalToken = parameters["token"], let issued = live(portalToken), issued.audience == .portal,
            !knobs.enforcesReferer || issued.referer == nil || issued.referer == refererHeader || issued.referer == parameters["referer"]
        else { throw TokenEndpointError(code: 498, message: "Invalid token.") }
        guard let serverURL = parameters["serverUrl"], let origin = SecurityPaths.origin(of: serverURL), federatedOrigins.contains(origin) else {
            throw .unableToGenerate("The server URL is not federated with this portal.")
        }
        let referer = parameters["client"]?.lowercased() == "referer" ? parameters["referer"] : issued.referer
        let lifetime = min(lifetime(requestedMinutes: try expiration(parameters)), issued.expiresAt - WallClock.nowMilliseconds())
        let minted = mint(audience: .server(origin), username: issued.username, referer: referer, lifetime: max(1, lifetime))
        return reported(minted)
    }

    /// `oauth2/token` for every grant type.
    mutating func oauthToken(_ parameters: RequestParameters) throws(TokenEndpointError) -> OAuthTokenAnswer {
        guard let clientID = parameters["client_id"], let client = clients[clientID] else {
            throw .oauth("invalid_client", "Invalid client_id")
        }
        if let sent = parameters["client_secret"], sent != client.clientSecret {
            throw .oauth("invalid_client", "Invalid client_secret")
        }
        switch parameters["grant_type"] {
        case "client_credentials":
            guard client.clientSecret != nil, parameters["client_secret"] != nil else {
                throw .oauth("invalid_client", "Invalid client_secret")
            }
            let lifetime = lifetime(requestedMinutes: try expiration(parameters))
            let minted = mint(audience: .portal, username: client.owner, referer: nil, lifetime: lifetime)
            return OAuthTokenAnswer(accessToken: minted.token, expiresIn: Int(lifetime / 1000), username: nil, ssl: knobs.ssl)
        case "authorization_code":
            let pending = try redeem(parameters, client: client)
            return issueSession(clientID: clientID, username: pending.username, parameters: parameters)
        case "refresh_token":
            let (token, refresh) = try liveRefreshToken(parameters, clientID: clientID)
            let lifetime = lifetime(requestedMinutes: nil)
            let minted = mint(audience: .portal, username: refresh.username, referer: nil, lifetime: lifetime, refreshToken: token)
            return OAuthTokenAnswer(accessToken: minted.token, expiresIn: Int(lifetime / 1000), username: refresh.username, ssl: knobs.ssl)
        case "exchange_refresh_token":
            let (token, refresh) = try liveRefreshToken(parameters, clientID: clientID)
            refreshTokens[token] = nil
            return issueSession(clientID: clientID, username: refresh.username, parameters: parameters)
        default:
            throw .oauth("unsupported_grant_type", "Unsupported grant_type")
        }
    }

    /// A code for an approved authorization.
    mutating func authorizationCode(clientID: String, redirectURI: String, challenge: String, username: String) -> String {
        let code = Base64URL.random(bytes: 24)
        let expiresAt = WallClock.nowMilliseconds() + Int64(max(1, knobs.authorizationCodeLifetimeSeconds)) * 1000
        codes[code] = PendingCode(clientID: clientID, redirectURI: redirectURI, challenge: challenge, username: username, expiresAt: expiresAt)
        return code
    }

    /// `oauth2/revokeToken`: a refresh token (with the access tokens refreshed from it) or an access token.
    mutating func revoke(_ parameters: RequestParameters) throws(TokenEndpointError) {
        guard let clientID = parameters["client_id"], clients[clientID] != nil else {
            throw .oauth("invalid_client", "Invalid client_id")
        }
        guard let token = parameters["auth_token"] ?? parameters["token"] else {
            throw .oauth("invalid_request", "auth_token is required")
        }
        if refreshTokens.removeValue(forKey: token) != nil {
            tokens = tokens.filter { $0.value.refreshToken != token }
        } else {
            tokens[token] = nil
        }
    }

    /// Revokes every access and server token (and refresh token and pending code when asked).
    mutating func revokeAll(includingRefreshTokens: Bool) {
        tokens.removeAll()
        if includingRefreshTokens {
            refreshTokens.removeAll()
            codes.removeAll()
        }
    }

    private mutating func issueSession(clientID: String, username: String, parameters: RequestParameters) -> OAuthTokenAnswer {
        let refresh = Base64URL.random(bytes: 36)
        let refreshLifetime = max(1, knobs.refreshTokenLifetimeSeconds)
        refreshTokens[refresh] = IssuedRefreshToken(
            clientID: clientID, username: username, expiresAt: WallClock.nowMilliseconds() + Int64(refreshLifetime) * 1000)
        let lifetime = lifetime(requestedMinutes: nil)
        let minted = mint(audience: .portal, username: username, referer: nil, lifetime: lifetime, refreshToken: refresh)
        return OAuthTokenAnswer(
            accessToken: minted.token, expiresIn: Int(lifetime / 1000), username: username, ssl: knobs.ssl,
            refreshToken: refresh, refreshTokenExpiresIn: refreshLifetime)
    }

    private mutating func redeem(_ parameters: RequestParameters, client: SampleOAuthClient) throws(TokenEndpointError) -> PendingCode {
        guard let code = parameters["code"], let pending = codes.removeValue(forKey: code), pending.clientID == client.clientID,
            pending.expiresAt > WallClock.nowMilliseconds()
        else { throw .oauth("invalid_grant", "Invalid authorization code") }
        guard parameters["redirect_uri"] == pending.redirectURI else {
            throw .oauth("invalid_grant", "redirect_uri does not match the authorization request")
        }
        if pending.challenge.isEmpty {
            guard parameters["client_secret"] != nil else { throw .oauth("invalid_client", "Invalid client_secret") }
        } else {
            guard let verifier = parameters["code_verifier"], PKCE.matches(verifier: verifier, challenge: pending.challenge) else {
                throw .oauth("invalid_grant", "Invalid code_verifier")
            }
        }
        return pending
    }

    /// The refresh token of the request, alive and the client's; 498 when it has expired.
    private func liveRefreshToken(_ parameters: RequestParameters, clientID: String) throws(TokenEndpointError) -> (String, IssuedRefreshToken) {
        guard let token = parameters["refresh_token"], let refresh = refreshTokens[token], refresh.clientID == clientID else {
            throw .oauth("invalid_request", "Invalid refresh_token")
        }
        guard refresh.expiresAt > WallClock.nowMilliseconds() else {
            throw .oauth("invalid_request", "refresh_token expired", code: 498)
        }
        return (token, refresh)
    }

    /// The referer a generateToken binds its token to.
    private func bindingReferer(_ parameters: RequestParameters) throws(TokenEndpointError) -> String? {
        let client = parameters["client"]?.lowercased()
        if client == "referer" {
            guard let referer = parameters["referer"] else { throw .unableToGenerate("'referer' must be specified with client=referer.") }
            return referer
        }
        if knobs.requiresRefererClient { throw .unableToGenerate("'client' must be 'referer', with a 'referer'.") }
        return nil
    }

    /// `expiration` in minutes, or nil when absent.
    private func expiration(_ parameters: RequestParameters) throws(TokenEndpointError) -> Int? {
        guard let text = parameters["expiration"] else { return nil }
        guard let minutes = Int(text.trimmingSpaces()), minutes >= 1 else {
            throw .unableToGenerate("'expiration' must be a whole number of minutes of at least 1.")
        }
        return minutes
    }

    private func reported(_ minted: (token: String, expiresAt: Int64)) -> GeneratedToken {
        GeneratedToken(token: minted.token, expires: minted.expiresAt + Int64(knobs.clockSkewSeconds) * 1000, ssl: knobs.ssl)
    }
}
