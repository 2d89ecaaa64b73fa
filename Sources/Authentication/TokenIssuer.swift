package import Credentials
package import EngineExecution

/// Makes the token calls of the refreshable kinds (`token`, `oauthApp`, `oauthUser`, `oauth2`): the network side
/// of the credentials, kept apart from ``CredentialAuthenticator``, which decides *when* a call is made (once,
/// shared, with backoff) and never makes one itself.
package protocol TokenIssuer: Sendable {
    /// Which token a request to `url` needs under `credential`: one per credential for most kinds; for a `token`
    /// credential one per ArcGIS Server site it reaches (read from the site's `rest/info`, cached), so a
    /// federated server gets its own exchanged token. Throws `not_federated` when the site belongs to another
    /// portal, `authentication_required`/`token_service_unavailable` when the site can't say where tokens
    /// come from.
    func audience(for credential: Credential, url: String) async throws(AuthenticationFailure) -> TokenAudience

    /// Makes one token call (two for a federated server: the portal token, then the exchange) and returns the
    /// token with how to present it. Wrong passwords and invalid clients are terminal `credential_rejected`; an
    /// expired refresh token is `relogin_required`; an unreachable or failing token service is retryable.
    func issue(_ credential: Credential, for audience: TokenAudience) async throws(TokenFailure) -> IssuedGrant

    /// Signs a removed `oauthUser` out: revokes its refresh token at the portal and deletes the file. Failures
    /// are logged, not thrown (the credential is gone either way).
    func signOut(_ credential: Credential) async
}

/// Where a token is valid and how to get it. Part of the cache key of ``CredentialAuthenticator``'s tokens.
package struct TokenAudience: Sendable, Hashable, CustomStringConvertible {
    /// What the token is for: a server root (`https://host/arcgis`) for a server token, the token endpoint for
    /// every other token. Safe to log.
    package var key: String
    /// Where to make the token call (`generateToken`, `oauth2/token`).
    package var tokenServiceURL: String
    /// A federated server's root: the portal token is exchanged for a token of this server (`serverUrl`).
    package var exchangeForServer: String?

    package init(key: String, tokenServiceURL: String, exchangeForServer: String? = nil) {
        self.key = key
        self.tokenServiceURL = tokenServiceURL
        self.exchangeForServer = exchangeForServer
    }

    package var description: String { key }
}

/// A successful token call: the state machine's grant plus how the token must travel.
package struct IssuedGrant: Sendable, Hashable {
    package var grant: TokenGrant
    /// The `Referer` the token was minted for (`token`): sent with it on every request.
    package var referer: String?
    /// Minted `ssl: true`: the token may only travel over https (`insecure_transport` otherwise).
    package var requiresTLS: Bool

    package init(grant: TokenGrant, referer: String? = nil, requiresTLS: Bool = false) {
        self.grant = grant
        self.referer = referer
        self.requiresTLS = requiresTLS
    }
}
