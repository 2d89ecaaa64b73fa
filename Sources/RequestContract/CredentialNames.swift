import Credentials
import FeatureQuerySupport

/// The credentials a request's `credential` may name, as the decoder checks it.
///
/// A named credential must exist now and cover every target: a request that picks a credential for one
/// server and sends it to another is refused on arrival (`credential_scope_mismatch`) rather than run with
/// no credential, or the wrong one, for some of its layers.
package enum CredentialNames: Sendable {
    /// Not checked: a tool checking a request before it sends it, not knowing the worker's credentials.
    case unchecked
    /// A worker without a credentials file: every name is `unknown_credential`.
    case noCredentialsFile
    /// The worker's credentials now (swapped whole on reload).
    case current(any CurrentCredentials)

    /// Refuses `name` unless it is configured and one of its scopes covers each target's URL (the URL the
    /// engine starts from: a layer, a service, an OGC landing page; everything the engine reaches from it
    /// lies below it).
    package func check(_ name: String, targets: [QueryTarget]) throws(ContractError) {
        let shown = RequestFieldReader.excerpt(name)
        let store: CredentialStore
        switch self {
        case .unchecked:
            return
        case .noCredentialsFile:
            throw ContractError.at(
                "credential", .unknownCredential,
                "this worker has no credentials file, so the credential \"\(shown)\" is not configured; send the request "
                    + "without credential for public layers, or ask the operator to configure it",
                details: ["credential": .string(shown)])
        case .current(let credentials):
            store = credentials.store
        }
        guard let credential = store.credential(named: name) else {
            throw ContractError.at(
                "credential", .unknownCredential,
                "no credential \"\(shown)\" is configured on this worker (names are case-sensitive); ask the operator to "
                    + "add it to the credentials file, or send the request without credential",
                details: ["credential": .string(shown)])
        }
        for (index, target) in targets.enumerated() where !credential.scopes.contains(where: { $0.covers(target.url) }) {
            let scopes = credential.scopes.map(\.description).joined(separator: ", ")
            throw ContractError.at(
                "credential", .credentialScopeMismatch,
                "the credential \"\(shown)\" does not cover targets[\(index)] (\(target.url)): it applies under "
                    + "\(scopes) only; name a credential for that server, or send its targets in another request",
                details: ["credential": .string(shown), "target": .string("targets[\(index)]")])
        }
    }
}
