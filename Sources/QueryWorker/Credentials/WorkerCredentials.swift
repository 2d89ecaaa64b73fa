package import Credentials
import Foundation
package import Logging

/// The credentials the worker starts with: the operator's file (``WorkerSettings/credentialsFile``) read,
/// validated and checked as far as it can be without a network call, or none.
///
/// A bad file stops the start: a worker that would answer every secured request with an authentication
/// error is worse than one that does not start and says which credential and field to fix.
package struct WorkerCredentials: Sendable {
    /// The file; `nil` for a worker without credentials (requests naming one are `unknown_credential`).
    package let path: String?
    /// The credentials, checked.
    package let store: CredentialStore
    /// The version of the file they were read from, so the reloader sees a change made while the worker started.
    let version: CredentialsFileVersion?
    /// The Kerberos identity of the file's `negotiate` credential, fixed for the life of the process.
    package let kerberos: KerberosIdentity?
    /// How secrets were resolved at start, and are on every reload (the environment of the start).
    let resolver: SecretResolver

    /// No credentials file.
    package static let none = WorkerCredentials(
        path: nil, store: CredentialStore(credentials: []), version: nil, kerberos: nil, resolver: SecretResolver(environment: [:]))

    /// Reads and checks the file at `path`, resolving every secret once with `environment` (the process's in
    /// production). Throws the first problem, naming the credential and field, never a value.
    package static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CredentialsConfigurationError) -> WorkerCredentials {
        let version = CredentialsFileVersion.read(path: path)
        let resolver = SecretResolver(environment: environment)
        let store = try CredentialsCheck.validated(version, resolver: resolver)
        return WorkerCredentials(
            path: path, store: store, version: version, kerberos: KerberosIdentity(of: store), resolver: resolver)
    }

    /// The credentials of ``WorkerSettings/credentialsFile``, or ``none`` without one.
    package static func load(
        settings: WorkerSettings, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CredentialsConfigurationError) -> WorkerCredentials {
        guard let path = settings.credentialsFile else { return .none }
        return try load(path: path, environment: environment)
    }

    /// Why the credentials file stops the start: the file, then the credential and field at fault and what to
    /// do (``CredentialsConfigurationError/message`` never holds a value from the file or a secret).
    package static func startupRefusal(_ error: CredentialsConfigurationError, path: String?) -> String {
        "\(SettingsKey.credentialsFile.name) \(path ?? "none"): \(error.message) (\(error.code))"
    }

    /// For the start-up line: each credential's name, kind and scopes, and nothing else (a secret reference's
    /// path or variable name is not secret, but the echo has no need of it either).
    package var logMetadata: Logger.Metadata {
        guard let path else { return ["credentialsFile": "none", "credentials": []] }
        return [
            "credentialsFile": .string(path),
            "credentials": .array(store.all.map(Self.metadata)),
        ]
    }

    /// The start-up line's metadata (`query-worker run` logs "starting" with it): the settings, then the
    /// credentials' names, kinds and scopes. One function, so the leak test searches the echo the worker writes.
    package func startupMetadata(_ settings: WorkerSettings) -> Logger.Metadata {
        settings.logMetadata.merging(logMetadata) { _, credentials in credentials }
    }

    static func metadata(_ credential: Credential) -> Logger.MetadataValue {
        [
            "name": .string(credential.name), "kind": .string(credential.kind.rawValue),
            "scopes": .array(credential.scopes.map { .string($0.description) }),
        ]
    }
}
