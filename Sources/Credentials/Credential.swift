/// One credential of the operator's file: its name, the URL prefixes it applies to and its kind's settings.
///
/// Secret fields hold a ``SecretReference``, not the secret: the value is read when needed (see
/// ``SecretResolver``), so a rotated secret file is used without reloading the credentials file, and a
/// `Credential` can be logged or compared without exposing anything.
package struct Credential: Sendable, Hashable, CustomStringConvertible {
    /// Unique in the file; what requests' `credential` field, outcomes and logs name.
    package let name: String
    /// At least one; the credential applies to a target under any of them.
    package let scopes: [CredentialScope]
    package let configuration: Configuration

    package init(name: String, scopes: [CredentialScope], configuration: Configuration) {
        self.name = name
        self.scopes = scopes
        self.configuration = configuration
    }

    /// Each kind's settings, so that a kind and fields that don't belong to it can't be combined.
    package enum Configuration: Sendable, Hashable {
        case apiKey(APIKeySettings)
        case token(TokenSettings)
        case pregeneratedToken(PregeneratedTokenSettings)
        case oauthApp(OAuthAppSettings)
        case oauthUser(OAuthUserSettings)
        case oauth2(OAuth2Settings)
        case password(PasswordSettings)
        case certificate(CertificateSettings)
        case serverTrust(ServerTrustSettings)
    }

    package var kind: CredentialKind {
        switch configuration {
        case .apiKey: .apiKey
        case .token: .token
        case .pregeneratedToken: .pregeneratedToken
        case .oauthApp: .oauthApp
        case .oauthUser: .oauthUser
        case .oauth2: .oauth2
        case .password: .password
        case .certificate: .certificate
        case .serverTrust: .serverTrust
        }
    }

    /// The most specific of this credential's scopes that covers the target, if any.
    func bestScope(covering target: TargetLocation) -> CredentialScope? {
        scopes.filter { $0.covers(target) }.max { $0.specificity < $1.specificity }
    }

    /// The secret fields by name, for checking at start and on reload that every one can be read.
    package var secretReferences: [(field: String, reference: SecretReference)] {
        switch configuration {
        case .apiKey(let settings): [("key", settings.key)]
        case .token(let settings): [("password", settings.password)]
        case .pregeneratedToken(let settings): [("token", settings.token)]
        case .oauthApp(let settings): [("clientSecret", settings.clientSecret)]
        case .oauthUser: []
        case .oauth2(let settings): [("clientSecret", settings.clientSecret)]
        case .password(let settings): settings.password.map { [("password", $0)] } ?? []
        case .certificate(let settings): settings.password.map { [("password", $0)] } ?? []
        case .serverTrust: []
        }
    }

    /// The files the credential reads besides its secrets (certificates, keys, CA files, keytabs), by field.
    package var filePaths: [(field: String, path: String)] {
        switch configuration {
        case .password(let settings): settings.keytab.map { [("keytab", $0)] } ?? []
        case .certificate(let settings): [("path", settings.path)] + (settings.keyPath.map { [("keyPath", $0)] } ?? [])
        case .serverTrust(let settings):
            if case .caFile(let path) = settings.anchor { [("caFile", path)] } else { [] }
        case .apiKey, .token, .pregeneratedToken, .oauthApp, .oauthUser, .oauth2: []
        }
    }

    /// Name, kind and scopes: what logs and the settings echo may show.
    package var description: String {
        "\(name) (\(kind)) for \(scopes.map(\.description).joined(separator: ", "))"
    }
}
