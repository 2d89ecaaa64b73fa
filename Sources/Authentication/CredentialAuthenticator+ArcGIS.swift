package import Credentials
package import CurlHTTP
package import Logging
import Synchronization
import EngineExecution

extension CredentialAuthenticator {
    /// The worker's authenticator: token calls made by an ``ArcGISTokenIssuer`` over `client`, which presents
    /// the current store's server trust and client certificate for each token and `rest/info` URL (a portal
    /// behind a private CA or mutual TLS), as requests to the services get them.
    package static func arcGIS(
        store: CredentialStore, resolver: SecretResolver, client: HTTPClient,
        policy: TokenRefreshPolicy = TokenRefreshPolicy(), logger: Logger, metrics: TokenMetrics = TokenMetrics()
    ) -> CredentialAuthenticator {
        // The issuer needs the authenticator's current store, and the authenticator needs the issuer: the
        // issuer holds the authenticator weakly, set once both exist.
        let reference = WeakAuthenticator()
        let issuer = ArcGISTokenIssuer(
            client: client, resolver: resolver, logger: logger,
            networkRule: { url in reference.get()?.transportRule(for: url) })
        let authenticator = CredentialAuthenticator(
            store: store, resolver: resolver, issuer: issuer, policy: policy, logger: logger, metrics: metrics)
        reference.set(authenticator)
        return authenticator
    }

    /// The server trust and client certificate the current store gives `url` (no HTTP authentication and no
    /// token: a token service gets only the password or secret its call carries). `nil` when none applies or a
    /// secret can't be read (the call then fails as the server decides, and the request reports it).
    func transportRule(for url: String) -> HTTPCredentialRule? {
        let selection = store.selection(for: url).filter { $0.key == .serverTrust || $0.key == .clientCertificate }
        guard !selection.isEmpty else { return nil }
        do {
            return try NetworkCredentials.applied(selection, url: url, resolver: resolver).network
        } catch {
            logger.warning(
                "no client certificate for a token call",
                metadata: ["credential": "\(error.credential ?? "-")", "error.message": "\(error.message)"])
            return nil
        }
    }
}

/// A weak reference that can be handed to a `@Sendable` closure before its object exists.
private final class WeakAuthenticator: Sendable {
    private struct Box: @unchecked Sendable {
        weak var object: CredentialAuthenticator?
    }
    private let box = Mutex(Box())

    func set(_ object: CredentialAuthenticator) { box.withLock { $0.object = object } }
    func get() -> CredentialAuthenticator? { box.withLock { $0.object } }
}
