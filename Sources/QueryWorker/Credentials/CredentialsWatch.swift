import Credentials

/// Decides, each time it looks at the credentials file, whether there is a new configuration to use: a value
/// type whose only I/O is reading the file (and the secrets it names), so the reloader's decisions are tested
/// one look at a time, without a clock or a task.
///
/// A new version that validates is used. One that does not keeps the current configuration and is reported
/// once (not on every look while it stays broken); a failure that may pass by itself (a secret file or
/// variable not there yet) is tried again on every look until it passes or the file changes.
struct CredentialsWatch: Sendable {
    /// What one look found.
    enum Change: Sendable, Hashable {
        /// Nothing to do.
        case unchanged
        /// A new, valid configuration.
        case reloaded(CredentialStore)
        /// The file changed but does not validate; the current configuration stays.
        case refused(CredentialsConfigurationError)
    }

    let path: String
    let resolver: SecretResolver
    /// The Kerberos identity the process started with.
    let kerberos: KerberosIdentity?
    private var seen: CredentialsFileVersion?
    private var lastFailure: CredentialsConfigurationError?

    /// A watch of the file the worker started with (`started`, as read then).
    init(path: String, started: CredentialsFileVersion?, kerberos: KerberosIdentity?, resolver: SecretResolver) {
        self.path = path
        self.seen = started
        self.kerberos = kerberos
        self.resolver = resolver
    }

    /// Reads the file and compares it with the version last seen.
    mutating func look() -> Change {
        let version = CredentialsFileVersion.read(path: path)
        let retrying = lastFailure?.isRetryable == true
        guard version != seen || retrying else { return .unchanged }
        seen = version
        do {
            let store = try CredentialsCheck.validated(version, resolver: resolver, occasion: .reload(startedWith: kerberos))
            lastFailure = nil
            return .reloaded(store)
        } catch {
            defer { lastFailure = error }
            return retrying && error == lastFailure ? .unchanged : .refused(error)
        }
    }
}
