#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
package import Credentials

/// The one Kerberos identity a worker authenticates with (`password` credentials with `scheme: negotiate`).
///
/// libcurl's SPNEGO goes through GSS-API, which takes the client keytab and the credential cache from the
/// process environment, not from the request. So a worker has at most one `negotiate` credential, its keytab
/// is given to GSS-API through `KRB5_CLIENT_KTNAME` before the HTTP client starts, and the tickets live in a
/// memory cache of the process (`KRB5CCNAME=MEMORY:…`: nothing written to disk, no `kinit`).
package struct KerberosIdentity: Sendable, Hashable {
    /// The credential's name.
    package let credential: String
    package let keytab: String
    package let principal: String

    /// The credential cache every worker process uses: in memory, its own.
    package static let credentialCache = "MEMORY:query-worker"

    /// The identity of the store's `negotiate` credential, if it has one (call ``single(in:)`` first).
    package init?(of store: CredentialStore) {
        guard let found = try? Self.single(in: store) else { return nil }
        self = found
    }

    init(credential: String, keytab: String, principal: String) {
        self.credential = credential
        self.keytab = keytab
        self.principal = principal
    }

    /// The store's `negotiate` credential as an identity; refuses a second one.
    static func single(in store: CredentialStore) throws(CredentialsConfigurationError) -> KerberosIdentity? {
        var found: KerberosIdentity?
        for credential in store.all {
            guard case .password(let settings) = credential.configuration, settings.scheme == .negotiate else { continue }
            if let first = found {
                throw CredentialsConfigurationError(
                    code: .conflict, credential: credential.name, field: "scheme",
                    reason: "is negotiate, like credential '\(first.credential)': libcurl's Kerberos identity belongs to "
                        + "the process, so a worker has at most one negotiate credential; give '\(first.credential)' "
                        + "every scope that needs it instead")
            }
            // The file's rules make both present for negotiate; a credential without them has no identity.
            guard let keytab = settings.keytab, let principal = settings.principal else { continue }
            found = KerberosIdentity(credential: credential.name, keytab: keytab, principal: principal)
        }
        return found
    }

    /// A reload may not change the identity the process started with: GSS-API read it from the environment,
    /// and changing the environment of a running multi-threaded process is unsafe.
    static func checkUnchanged(
        _ identity: KerberosIdentity?, started: KerberosIdentity?
    ) throws(CredentialsConfigurationError) {
        guard identity?.keytab != started?.keytab || identity?.principal != started?.principal else { return }
        // Removing the negotiate credential is fine: nothing will use the identity any more.
        guard let identity else { return }
        throw CredentialsConfigurationError(
            code: .conflict, credential: identity.credential, field: started == nil ? "scheme" : "keytab",
            reason: "changes the worker's Kerberos identity (keytab and principal), which is set when the worker "
                + "starts: restart the worker to use it")
    }

    /// The environment GSS-API needs: the client keytab and the process's memory credential cache.
    package var environment: [String: String] {
        ["KRB5_CLIENT_KTNAME": "FILE:\(keytab)", "KRB5CCNAME": Self.credentialCache]
    }

    /// Sets ``environment`` in the process. Call it once at start, before the HTTP client (and so libcurl)
    /// starts any thread: `setenv` is not safe while other threads read the environment.
    package func install() {
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) { setenv(name, value, 1) }
    }
}
