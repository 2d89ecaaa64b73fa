import Credentials
import CurlHTTP
import EngineExecution
import FeatureService
import FeatureServiceEngines
import Logging
import Synchronization

/// How the worker's credentials reach its parts: one authenticator for the engines, which is also where the
/// decoder reads the credential names and the reloader swaps in a new file.
extension WorkerAssembly {
    struct CredentialsWiring {
        /// What the engines ask before each request.
        var authenticator: any RequestAuthenticator
        /// What the decoder checks a request's `credential` against.
        var names: CredentialNames
        /// What the reloader replaces; `nil` without a credentials file.
        var current: (any CurrentCredentials)?
    }

    static func credentialsWiring(_ credentials: WorkerCredentials, httpClient: HTTPClient, logger: Logger) -> CredentialsWiring {
        guard credentials.path != nil else {
            return CredentialsWiring(authenticator: NoAuthentication(), names: .noCredentialsFile, current: nil)
        }
        // ISSUE13-LEAD: once CredentialAuthenticator and ArcGISTokenIssuer land on main, this becomes
        //   let issuer = ArcGISTokenIssuer(httpClient: httpClient, resolver: credentials.resolver, logger: logger)
        //   let authenticator = CredentialAuthenticator(
        //       store: credentials.store, resolver: credentials.resolver, issuer: issuer, logger: logger)
        //   return CredentialsWiring(authenticator: authenticator, names: .current(authenticator), current: authenticator)
        // (with `extension CredentialAuthenticator: CurrentCredentials {}`), and StoredCredentials goes.
        let current = StoredCredentials(credentials.store)
        return CredentialsWiring(authenticator: NoAuthentication(), names: .current(current), current: current)
    }

    /// Every protocol's engine, authenticating through `authenticator`.
    static func engines(
        settings: WorkerSettings, httpClient: HTTPClient, authenticator: any RequestAuthenticator, logger: Logger
    ) -> FeatureServiceRouter {
        // ISSUE13-LANE-E: pass `authenticator: authenticator` once StandardEngines.router takes it (s13-engines).
        _ = authenticator
        return StandardEngines.router(
            httpClient: httpClient,
            limits: StandardEngines.Limits(
                maxRequestsPerHost: settings.limits.maxRequestsPerHost, requestTimeout: settings.timeouts.http,
                maxLayersPerRequest: settings.limits.maxLayers),
            logger: logger)
    }
}

/// ISSUE13-LEAD: the current store alone, until `CredentialAuthenticator` (which holds it in a worker) lands.
final class StoredCredentials: CurrentCredentials {
    private let current: Mutex<CredentialStore>

    init(_ store: CredentialStore) { current = Mutex(store) }

    var store: CredentialStore { current.withLock { $0 } }

    func replace(store: CredentialStore) async { current.withLock { $0 = store } }
}
