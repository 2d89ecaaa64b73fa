import Credentials

extension ArcGISTokenIssuer {
    /// `generateToken` with the username and password; for a federated server, then the portal token exchanged
    /// for the server's (`token` + `serverUrl`), minted for the same referer.
    func issueToken(_ credential: Credential, _ settings: TokenSettings, for audience: TokenAudience) async throws(TokenFailure) -> IssuedGrant {
        let url = audience.tokenServiceURL
        let isGiven = settings.tokenURL.map { TokenEndpoints.same(TokenEndpoints.requestURL($0), url) } ?? false
        guard isGiven || TokenEndpoints.isInScope(url, of: credential) else {
            throw TokenFailure(
                code: .credentialRejected,
                message: "the password of credential \"\(credential.name)\" is not sent to \(url), which is neither its tokenUrl nor under its scopes",
                isRetryable: false)
        }
        let password = try secret(settings.password, of: credential.name, field: "password")
        let minutes = String(settings.expirationMinutes)
        let portal = try await post(
            url,
            [("username", settings.username), ("password", password.revealed()), ("client", "referer"), ("referer", settings.referer),
             ("expiration", minutes), ("f", "json")],
            call: TokenCall(credential: credential.name, url: url, purpose: .password))
        guard let server = audience.exchangeForServer else {
            return Self.grant(portal, requestedMinutes: settings.expirationMinutes, referer: settings.referer)
        }
        let exchanged = try await post(
            url,
            [("token", portal.token.revealed()), ("serverUrl", server), ("client", "referer"), ("referer", settings.referer),
             ("expiration", minutes), ("f", "json")],
            call: TokenCall(credential: credential.name, url: url, purpose: .serverExchange(server: server)))
        return Self.grant(exchanged, requestedMinutes: settings.expirationMinutes, referer: settings.referer)
    }

    /// `client_credentials` at the portal's `oauth2/token`: an application token.
    func issueApplicationToken(_ credential: Credential, _ settings: OAuthAppSettings) async throws(TokenFailure) -> IssuedGrant {
        let url = TokenEndpoints.oauth(settings.portalURL, "token")
        let clientSecret = try secret(settings.clientSecret, of: credential.name, field: "clientSecret")
        let answer = try await post(
            url,
            [("client_id", settings.clientID), ("client_secret", clientSecret.revealed()), ("grant_type", "client_credentials"),
             ("expiration", String(settings.expirationMinutes)), ("f", "json")],
            call: TokenCall(credential: credential.name, url: url, purpose: .client))
        return Self.grant(answer, requestedMinutes: settings.expirationMinutes)
    }

    /// `client_credentials` at any OAuth 2.0 token endpoint, the client authenticated in the form body
    /// (RFC 6749 §2.3.1), with `scope` when configured.
    func issueClientToken(_ credential: Credential, _ settings: OAuth2Settings) async throws(TokenFailure) -> IssuedGrant {
        let url = TokenEndpoints.requestURL(settings.tokenURL)
        let clientSecret = try secret(settings.clientSecret, of: credential.name, field: "clientSecret")
        var fields = [("grant_type", "client_credentials"), ("client_id", settings.clientID), ("client_secret", clientSecret.revealed())]
        if let scope = settings.oauthScope { fields.append(("scope", scope)) }
        let answer = try await post(url, fields, call: TokenCall(credential: credential.name, url: url, purpose: .client))
        return Self.grant(answer, requestedMinutes: nil)
    }
}
