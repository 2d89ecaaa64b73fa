package import Credentials
package import CurlHTTP
import EngineExecution
import FeatureQuerySupport
package import Logging

/// The token calls of ArcGIS portals and servers and of OAuth 2.0 endpoints, over the worker's HTTP client.
///
/// - `token`: `generateToken` with the username and password at `tokenUrl`, or at the token service the
///   target's site names in `rest/info` (cached per site); a federated server gets the portal token exchanged
///   for its own (`serverUrl`).
/// - `oauthApp`: `client_credentials` at the portal's `oauth2/token`.
/// - `oauthUser`: `refresh_token` with the token in `refreshTokenFile`, exchanged for a new one
///   (`exchange_refresh_token`) halfway through its life and written back atomically.
/// - `oauth2`: `client_credentials` at any OAuth 2.0 token endpoint.
///
/// Secrets are read when a call needs them and go only into the request body of the call. Failures name the
/// credential and the endpoint and say what to do; they never quote what the server answered.
package final class ArcGISTokenIssuer: TokenIssuer {
    let client: HTTPClient
    let resolver: SecretResolver
    let logger: Logger
    let requestTimeout: Duration
    let siteInfoCache: ExpiringCache<SiteInfo.Answer>
    let networkRule: @Sendable (_ url: String) -> HTTPCredentialRule?

    /// - Parameters:
    ///   - siteInfoTTL: how long a site's `rest/info` answer is used (federation changes rarely).
    ///   - requestTimeout: the whole of one token call.
    ///   - networkRule: the server trust and client certificate for a token or `rest/info` URL (the
    ///     authenticator's store decides, as for any request); `nil` for libcurl's defaults.
    package init(
        client: HTTPClient, resolver: SecretResolver, logger: Logger, siteInfoTTL: Duration = .seconds(600),
        requestTimeout: Duration = .seconds(30), networkRule: @escaping @Sendable (_ url: String) -> HTTPCredentialRule? = { _ in nil }
    ) {
        self.client = client
        self.resolver = resolver
        self.logger = logger
        self.requestTimeout = requestTimeout
        self.siteInfoCache = ExpiringCache(ttl: siteInfoTTL)
        self.networkRule = networkRule
    }

    package func issue(_ credential: Credential, for audience: TokenAudience) async throws(TokenFailure) -> IssuedGrant {
        switch credential.configuration {
        case .token(let settings): return try await issueToken(credential, settings, for: audience)
        case .oauthApp(let settings): return try await issueApplicationToken(credential, settings)
        case .oauthUser(let settings): return try await issueUserToken(credential, settings)
        case .oauth2(let settings): return try await issueClientToken(credential, settings)
        case .apiKey, .pregeneratedToken, .password, .certificate, .serverTrust:
            throw TokenFailure(
                code: .credentialRejected, message: "the credential \"\(credential.name)\" (\(credential.kind)) has no token to obtain",
                isRetryable: false)
        }
    }

    package func signOut(_ credential: Credential) async {
        guard case .oauthUser(let settings) = credential.configuration else { return }
        do {
            try await revokeRefreshToken(credential.name, settings)
        } catch {
            logger.warning(
                "could not revoke the refresh token of a removed credential; deleting its file anyway",
                metadata: ["credential": "\(credential.name)", "error": "\(error.message)"])
        }
        do {
            try RefreshTokenFile.remove(path: settings.refreshTokenFile)
        } catch {
            logger.warning("could not delete a removed credential's refresh token file",
                           metadata: ["credential": "\(credential.name)", "error": "\(error.message)"])
        }
    }

    // MARK: Calls

    /// One form POST to a token endpoint, read as a token answer.
    func post(_ url: String, _ fields: [(String, String)], call: TokenCall) async throws(TokenFailure) -> TokenResponse {
        let response = try await send(url, fields, call: call)
        return try TokenResponseReader.read(response, call: call)
    }

    /// One form POST to a token endpoint; transport failures are retryable `token_service_unavailable`.
    func send(_ url: String, _ fields: [(String, String)], call: TokenCall) async throws(TokenFailure) -> HTTPResponse {
        var request = HTTPRequest.formPost(url: url, fields: fields, headers: ["Accept": "application/json"])
        request.options.timeout = requestTimeout
        request.options.maxResponseSize = 1 << 20
        request.options.credentials = networkRule(url)
        logger.debug("token call", metadata: ["credential": "\(call.credential)", "url": "\(url)", "purpose": "\(call.purpose)"])
        do {
            return try await client.tracedExecute(request)
        } catch let error as HTTPError {
            throw TokenResponseReader.unavailable(call, "could not be reached (\(error.code))")
        } catch {
            throw TokenResponseReader.unavailable(call, "call was cancelled")
        }
    }

    /// A secret's value now, or the failure that names where it should be: `credential_unavailable`, tried
    /// again after the backoff (not remembered for the terminal window like a wrong password: the file may be
    /// back in a second, as in a Kubernetes secret's swap).
    func secret(_ reference: SecretReference, of credential: String, field: String) throws(TokenFailure) -> Secret {
        do {
            return try resolver.resolve(reference, credential: credential, field: field)
        } catch {
            throw TokenFailure(code: .credentialUnavailable, message: error.message, isRetryable: true)
        }
    }

    /// A token answer as the state machine takes it.
    static func grant(_ response: TokenResponse, requestedMinutes: Int?, referer: String? = nil) -> IssuedGrant {
        IssuedGrant(
            grant: TokenGrant(
                token: response.token, serverExpiry: response.serverExpiry(),
                requestedLifetime: requestedMinutes.map { .seconds($0 * 60) }),
            referer: referer, requiresTLS: response.requiresTLS)
    }
}
