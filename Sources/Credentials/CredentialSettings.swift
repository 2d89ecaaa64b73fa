/// `apiKey`: a key sent as it is on every request in scope; it expires but is never refreshed.
package struct APIKeySettings: Sendable, Hashable {
    package enum Placement: String, Sendable, Hashable, CaseIterable { case header, query }
    package var key: SecretReference
    /// `in`: a header (the default) or a query parameter.
    package var placement: Placement
    /// The header or parameter name (`parameter`): `X-Esri-Authorization` for a header, `token` for a query.
    package var parameter: String
    /// Text before the key with one space (`prefix`): `Bearer` for the default header, none otherwise.
    package var prefix: String?
}

/// `token`: ArcGIS `generateToken` with a username and password (TokenCredential).
package struct TokenSettings: Sendable, Hashable {
    package var username: String
    package var password: SecretReference
    /// The referer the token is minted for and then presented with.
    package var referer: String
    /// The lifetime asked for, 1–21600 minutes (the portal's maximum; a server may grant less).
    package var expirationMinutes: Int
    /// Where to generate tokens; `nil` to find it from the server's `rest/info` `authInfo`.
    package var tokenURL: CredentialURL?
}

/// `pregeneratedToken`: a token minted elsewhere, sent with the referer it was minted for.
package struct PregeneratedTokenSettings: Sendable, Hashable {
    package var token: SecretReference
    package var referer: String
    /// When it expires (Unix milliseconds), if known: after it the worker reports `credential_expired`.
    package var expiresMilliseconds: Int64?
}

/// `oauthApp`: OAuth `client_credentials` at the portal's `oauth2/token` (OAuthApplicationCredential).
package struct OAuthAppSettings: Sendable, Hashable {
    package var portalURL: CredentialURL
    package var clientID: String
    package var clientSecret: SecretReference
    /// 1–20160 minutes (ArcGIS's maximum for application tokens).
    package var expirationMinutes: Int
}

/// `oauthUser`: a headless user session kept alive with its refresh token (OAuthUserCredential).
package struct OAuthUserSettings: Sendable, Hashable {
    package var portalURL: CredentialURL
    package var clientID: String
    /// Where `login` stores the refresh token and the worker writes each exchanged one back (0600).
    package var refreshTokenFile: String
    /// `redirectUri`: the loopback redirect registered with the application, where `login` listens; the
    /// `exchange_refresh_token` call repeats it. `nil`: `login --redirect-uri` gives it.
    package var redirectURI: String?
}

/// A loopback redirect URI (RFC 8252 §7.3): `http`, host `127.0.0.1`, `[::1]` or `localhost`, an explicit port.
package struct LoopbackRedirect: Sendable, Hashable, CustomStringConvertible {
    /// The address to listen on: `127.0.0.1` for `localhost` too (RFC 8252 §8.3 advises the literal).
    package let listenHost: String
    package let port: Int
    /// The path the redirect arrives at (`/` when none).
    package let path: String
    /// As given: sent as `redirect_uri` unchanged, since the portal compares it exactly.
    package let uri: String

    package init?(_ text: String) {
        guard text.hasPrefix("http://"), let url = try? CredentialURL(parsing: text) else { return nil }
        let authority = text.dropFirst("http://".count).prefix { $0 != "/" }
        guard authority.hasSuffix(":\(url.port)") else { return nil }
        switch url.host {
        case "127.0.0.1", "localhost": listenHost = "127.0.0.1"
        case "[::1]": listenHost = "::1"
        default: return nil
        }
        port = url.port
        path = url.path.isEmpty ? "/" : url.path
        uri = text
    }

    package var description: String { uri }
}

/// `oauth2`: `client_credentials` at any OAuth 2.0 token endpoint, sent as `Authorization: Bearer`.
package struct OAuth2Settings: Sendable, Hashable {
    package var tokenURL: CredentialURL
    package var clientID: String
    package var clientSecret: SecretReference
    /// The OAuth `scope` parameter (`oauthScope` in the file, as `scope` names the URL prefixes).
    package var oauthScope: String?
}

/// `password`: HTTP authentication by libcurl (PasswordCredential).
package struct PasswordSettings: Sendable, Hashable {
    package enum Scheme: String, Sendable, Hashable, CaseIterable { case basic, digest, ntlm, negotiate, any }
    package var scheme: Scheme
    /// Absent for `negotiate`, which authenticates with ``keytab`` and ``principal``.
    package var username: String?
    package var password: SecretReference?
    /// `negotiate` only: the client keytab file.
    package var keytab: String?
    /// `negotiate` only: the Kerberos principal in the keytab.
    package var principal: String?
}

/// `certificate`: a TLS client certificate (CertificateCredential).
package struct CertificateSettings: Sendable, Hashable {
    /// A PKCS#12 file (`.p12`, `.pfx`), or a PEM certificate.
    package var path: String
    /// The PEM private key, when it is not in ``path``; never with PKCS#12.
    package var keyPath: String?
    /// The PKCS#12 or private key's password.
    package var password: SecretReference?
}

/// `serverTrust`: the certificates to trust for servers in scope only (ServerTrust).
package struct ServerTrustSettings: Sendable, Hashable {
    package enum Anchor: Sendable, Hashable {
        /// A PEM file of CA certificates.
        case caFile(String)
        /// libcurl's `sha256//BASE64[;sha256//BASE64...]`.
        case pinnedPublicKey(String)
    }
    package var anchor: Anchor

    package init(anchor: Anchor) { self.anchor = anchor }
}
