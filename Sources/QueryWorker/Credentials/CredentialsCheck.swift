import Credentials
import CurlHTTP

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

    /// Every `certificate` credential's file opens with its password, and its key belongs to its certificate (a
    /// wrong PKCS#12 password would otherwise fail every request in its scope with a TLS error). Offline; nothing
    /// decrypted is kept.
    static func checkClientCertificates(
        _ store: CredentialStore, resolver: SecretResolver
    ) throws(CredentialsConfigurationError) {
        for credential in store.all {
            guard case .certificate(let settings) = credential.configuration else { continue }
            let password = try settings.password.map { reference throws(CredentialsConfigurationError) in
                try resolver.resolve(reference, credential: credential.name, field: "password").revealed()
            }
            let lowered = settings.path.lowercased()
            let certificate: HTTPClientCertificate =
                lowered.hasSuffix(".p12") || lowered.hasSuffix(".pfx")
                ? .pkcs12(path: settings.path, password: password)
                : .pem(certificatePath: settings.path, keyPath: settings.keyPath ?? settings.path, passphrase: password)
            try checkOpens(certificate, credential: credential.name)
        }
    }

    /// CurlHTTP's offline check (the TLS library opens the file, nothing decrypted is kept). Its message names
    /// the file and the problem, never the password; a problem with the password is the `password` field's.
    static func checkOpens(_ certificate: HTTPClientCertificate, credential: String) throws(CredentialsConfigurationError) {
        do {
            try certificate.check()
        } catch {
            let aboutSecret = error.message.contains("password") || error.message.contains("passphrase")
            throw CredentialsConfigurationError(
                code: .invalidValue, credential: credential, field: aboutSecret ? "password" : "path", reason: error.message)
        }
    }
}
