package import Credentials

/// Where the worker's current credentials live: what new requests are checked against (their `credential`
/// name and its scopes) and run with, swapped whole on reload.
///
/// In a worker it is the `CredentialAuthenticator` the engines use, so the decoder and the engines read one
/// store and can't disagree about which credentials exist.
package protocol CurrentCredentials: AnyObject, Sendable {
    /// The credentials now.
    var store: CredentialStore { get }
    /// Makes `store` current for new requests (requests in flight finish with what they started with).
    func replace(store: CredentialStore) async
}
