import Credentials

/// The checks a credentials file passes before the worker uses it, at start and on every reload: the file's
/// own rules (`CredentialsFile`), one Kerberos identity, every secret and file readable
/// (`CredentialStore.check(with:)`), and client certificates that open with their password.
enum CredentialsCheck {
    /// When a file is checked.
    enum Occasion: Sendable, Hashable {
        case start
        /// A reload of a worker that started with this Kerberos identity (or none): a reload may not change
        /// it, since libcurl's GSS-API reads it from the environment set at start.
        case reload(startedWith: KerberosIdentity?)
    }

    /// The store of `version`, checked.
    static func validated(
        _ version: CredentialsFileVersion, resolver: SecretResolver, occasion: Occasion = .start
    ) throws(CredentialsConfigurationError) -> CredentialStore {
        guard let content = version.content else {
            throw CredentialsConfigurationError(
                code: .invalidFile, reason: "the credentials file \(version.path) can't be read")
        }
        guard content.count <= CredentialsFile.maxFileBytes else {
            throw CredentialsConfigurationError(
                code: .invalidFile,
                reason: "the credentials file \(version.path) is larger than \(CredentialsFile.maxFileBytes) bytes")
        }
        let store = try CredentialsFile.decode(content)
        let identity = try KerberosIdentity.single(in: store)
        if case .reload(let started) = occasion { try KerberosIdentity.checkUnchanged(identity, started: started) }
        try store.check(with: resolver)
        try checkClientCertificates(store, resolver: resolver)
        return store
    }

    /// Every `certificate` credential's file opens with its password (a wrong PKCS#12 password would otherwise
    /// fail every request in its scope with a TLS error).
    static func checkClientCertificates(
        _ store: CredentialStore, resolver: SecretResolver
    ) throws(CredentialsConfigurationError) {
        // ISSUE13-LANE-N: call CurlHTTP's PKCS#12 check here for every `certificate` credential once branch
        // s13-network lands it (e.g. `HTTPClientCertificate.check()`), mapping its failure to
        // CredentialsConfigurationError(code: .invalidValue, credential: name, field: "password").
        _ = (store, resolver)
    }
}
