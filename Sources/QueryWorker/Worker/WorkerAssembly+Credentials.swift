import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureService
import FeatureServiceEngines
import Logging

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

    static func credentialsWiring(_ credentials: WorkerCredentials, httpClient: HTTPClient, logger: Logger) -> CredentialsWiring {
        guard credentials.path != nil else {
            return CredentialsWiring(authenticator: NoAuthentication(), names: .noCredentialsFile, current: nil)
        }
        // ISSUE13-LANE-T2: `ArcGISTokenIssuer(client: httpClient, resolver: credentials.resolver, logger: logger)`
        // once it lands on main (branch s13-issuer); PendingTokenIssuer goes then.
        _ = httpClient
        let authenticator = CredentialAuthenticator(
            store: credentials.store, resolver: credentials.resolver, issuer: PendingTokenIssuer(), logger: logger)
        return CredentialsWiring(authenticator: authenticator, names: .current(authenticator), current: authenticator)
    }

    /// Every protocol's engine, authenticating through `authenticator`.
    static func engines(
        settings: WorkerSettings, httpClient: HTTPClient, authenticator: any RequestAuthenticator, logger: Logger
    ) -> FeatureServiceRouter {
        StandardEngines.router(
            httpClient: httpClient,
            limits: StandardEngines.Limits(
                maxRequestsPerHost: settings.limits.maxRequestsPerHost, requestTimeout: settings.timeouts.http,
                maxLayersPerRequest: settings.limits.maxLayers),
            logger: logger, authenticator: authenticator)
    }
}

/// The worker's authenticator holds the current credentials (``CredentialAuthenticator/store``) and takes a
/// reloaded file (``CredentialAuthenticator/replace(store:)``).
extension CredentialAuthenticator: CurrentCredentials {}

/// ISSUE13-LANE-T2: stands in for `ArcGISTokenIssuer` until it lands: every token call is
/// `token_service_unavailable`, so the token kinds fail clearly while the static kinds (keys, pre-generated
/// tokens, passwords, certificates, server trust) work.
struct PendingTokenIssuer: TokenIssuer {
    func audience(for credential: Credential, url: String) async throws(AuthenticationFailure) -> TokenAudience {
        throw AuthenticationFailure(
            .tokenServiceUnavailable, "token calls for credential \"\(credential.name)\" are not available in this build",
            credential: credential.name, isRetryable: true)
    }

    func issue(_ credential: Credential, for audience: TokenAudience) async throws(TokenFailure) -> IssuedGrant {
        throw TokenFailure(
            code: .tokenServiceUnavailable,
            message: "token calls for credential \"\(credential.name)\" are not available in this build", isRetryable: true)
    }

    func signOut(_ credential: Credential) async {}
}
