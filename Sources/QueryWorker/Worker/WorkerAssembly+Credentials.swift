import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureService
import FeatureServiceEngines
import Logging
import RequestContract

/// How the worker's credentials reach its parts: one ``CredentialAuthenticator`` for the engines, which is also
/// where the decoder reads the credential names and where the reloader swaps in a new file, so the three never
/// disagree about which credentials exist.
extension WorkerAssembly {
    struct CredentialsWiring {
        /// What the engines ask before each request.
        var authenticator: any RequestAuthenticator
        /// What the decoder checks a request's `credential` against.
        var names: CredentialNames
        /// What the reloader replaces; `nil` without a credentials file.
        var current: (any CurrentCredentials)?
    }

    static func credentialsWiring(
        _ credentials: WorkerCredentials, tokenPolicy: TokenRefreshPolicy = TokenRefreshPolicy(), httpClient: HTTPClient,
        metrics: TokenMetrics = TokenMetrics(), logger: Logger
    ) -> CredentialsWiring {
        guard credentials.path != nil else {
            return CredentialsWiring(authenticator: NoAuthentication(), names: .noCredentialsFile, current: nil)
        }
        // Token calls go through the worker's HTTP client, so the host policy holds for token services too, with
        // the server trust and client certificate the credentials give their URLs.
        let authenticator = CredentialAuthenticator.arcGIS(
            store: credentials.store, resolver: credentials.resolver, client: httpClient, policy: tokenPolicy, logger: logger,
            metrics: metrics)
        return CredentialsWiring(authenticator: authenticator, names: .current(authenticator), current: authenticator)
    }

    /// Every protocol's engine, authenticating through `authenticator`.
    static func engines(
        settings: WorkerSettings, httpClient: HTTPClient, authenticator: any RequestAuthenticator,
        metrics: EngineMetrics = EngineMetrics(), logger: Logger
    ) -> FeatureServiceRouter {
        StandardEngines.router(
            httpClient: httpClient,
            limits: StandardEngines.Limits(
                maxRequestsPerHost: settings.limits.maxRequestsPerHost, requestTimeout: settings.timeouts.http,
                maxLayersPerRequest: settings.limits.maxLayers),
            logger: engineLogger(logger), authenticator: authenticator, metrics: metrics)
    }

    /// The engines' logger: the worker's, with the run's `run`, `requestId` and `taskId` on every line
    /// (``RequestLogContext``). Only the engines': see there why not the whole process's.
    static func engineLogger(_ logger: Logger) -> Logger {
        var engineLogger = logger
        let existing = engineLogger.handler.metadataProvider
        engineLogger.handler.metadataProvider = existing.map { .multiplex([$0, RequestLogContext.provider]) } ?? RequestLogContext.provider
        return engineLogger
    }
}

/// The worker's authenticator holds the current credentials (``CredentialAuthenticator/store``) and takes a
/// reloaded file (``CredentialAuthenticator/replace(store:)``).
extension CredentialAuthenticator: CurrentCredentials {}
