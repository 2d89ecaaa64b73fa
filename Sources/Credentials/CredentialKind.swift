/// The kinds of credential, named after the ArcGIS SDKs' credential types, as the file's `kind` spells them.
package enum CredentialKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case apiKey, token, pregeneratedToken, oauthApp, oauthUser, oauth2, password, certificate, serverTrust

    /// What part of a request a kind supplies. Credentials of different roles apply to one target together
    /// (a client certificate, a server trust and a token); within a role the most specific scope wins.
    package enum Role: Sendable, Hashable, CaseIterable {
        /// A token or key sent in its own header (`X-Esri-Authorization` by default) or parameter.
        case token
        /// HTTP authentication by libcurl (`Authorization`: Basic, Digest, NTLM, Negotiate).
        case httpAuthentication
        /// A TLS client certificate.
        case clientCertificate
        /// Which server certificates to trust.
        case serverTrust
    }

    package var role: Role {
        switch self {
        case .apiKey, .token, .pregeneratedToken, .oauthApp, .oauthUser, .oauth2: .token
        case .password: .httpAuthentication
        case .certificate: .clientCertificate
        case .serverTrust: .serverTrust
        }
    }

    package var description: String { rawValue }
}
