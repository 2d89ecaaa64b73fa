package import Credentials
package import EngineExecution

extension ArcGISTokenIssuer {
    package func audience(for credential: Credential, url: String) async throws(AuthenticationFailure) -> TokenAudience {
        switch credential.configuration {
        case .token(let settings):
            return try await tokenAudience(credential, settings, url: url)
        case .oauthApp(let settings):
            let endpoint = TokenEndpoints.oauth(settings.portalURL, "token")
            return TokenAudience(key: endpoint, tokenServiceURL: endpoint)
        case .oauthUser(let settings):
            let endpoint = TokenEndpoints.oauth(settings.portalURL, "token")
            return TokenAudience(key: endpoint, tokenServiceURL: endpoint)
        case .oauth2(let settings):
            let endpoint = TokenEndpoints.requestURL(settings.tokenURL)
            return TokenAudience(key: endpoint, tokenServiceURL: endpoint)
        case .apiKey, .pregeneratedToken, .password, .certificate, .serverTrust:
            throw AuthenticationFailure(
                .authenticationRequired, "the credential \"\(credential.name)\" (\(credential.kind)) has no token to obtain",
                credential: credential.name)
        }
    }

    /// A `token` credential's audience for `url`: its site's token service, or for a federated server the
    /// portal's with an exchange for that server. The password goes only to the operator's `tokenUrl` or to a
    /// token service under the credential's scopes.
    private func tokenAudience(_ credential: Credential, _ settings: TokenSettings, url: String) async throws(AuthenticationFailure) -> TokenAudience {
        let name = credential.name
        let given = settings.tokenURL.map(TokenEndpoints.requestURL)
        func failure(_ code: AuthenticationFailure.Code, _ message: String, retryable: Bool = false) -> AuthenticationFailure {
            AuthenticationFailure(code, message, credential: name, isRetryable: retryable)
        }
        guard let site = TokenEndpoints.siteRoot(of: url) else {
            if let given { return TokenAudience(key: given, tokenServiceURL: given) }
            throw failure(
                .authenticationRequired,
                "the credential \"\(name)\" can't find the token service for \(url) (its path has no /rest/): give the credential a tokenUrl")
        }
        let info: SiteInfo
        do {
            info = try await siteInfo(of: site)
        } catch let error as SiteInfo.LoadFailure {
            if let given, !error.isRetryable { return TokenAudience(key: given, tokenServiceURL: given) }
            throw failure(
                error.isRetryable ? .tokenServiceUnavailable : .authenticationRequired,
                "the credential \"\(name)\" can't learn where \(site) gets its tokens: \(error.reason)"
                    + (error.isRetryable ? "; it will be tried again" : "; give the credential a tokenUrl"),
                retryable: error.isRetryable)
        } catch {
            throw failure(.tokenServiceUnavailable, "the credential \"\(name)\" stopped waiting for \(site)'s info", retryable: true)
        }
        guard let owner = info.owningSystemURL, !Self.isPortal(site: site, ownedBy: owner) else {
            if let given { return TokenAudience(key: given, tokenServiceURL: given) }
            guard let service = info.tokenServicesURL else {
                throw failure(
                    .authenticationRequired,
                    "\(site) does not name a token service (it may not use token security): the credential \"\(name)\" can't be used there; give it a tokenUrl")
            }
            try checkScope(service, credential, site: site)
            return TokenAudience(key: service, tokenServiceURL: service)
        }
        let portalTokenURL: String
        if let given {
            guard let portal = TokenEndpoints.portal(ofTokenURL: given), TokenEndpoints.same(TokenEndpoints.requestURL(portal), owner)
            else {
                throw failure(
                    .notFederated,
                    "\(site) is federated with \(owner), not with the portal the credential \"\(name)\" signs in to (\(given)): its token is not sent there; use a credential of that portal")
            }
            portalTokenURL = given
        } else {
            guard let service = info.tokenServicesURL, let portal = TokenEndpoints.portal(ofTokenURL: service),
                TokenEndpoints.same(TokenEndpoints.requestURL(portal), owner)
            else {
                throw failure(
                    .authenticationRequired,
                    "\(site) is federated with \(owner) but does not name that portal's token service: give the credential \"\(name)\" a tokenUrl")
            }
            try checkScope(service, credential, site: site)
            portalTokenURL = service
        }
        if TokenEndpoints.isArcGISOnline(site: site, portalTokenURL: portalTokenURL) {
            return TokenAudience(key: portalTokenURL, tokenServiceURL: portalTokenURL)
        }
        return TokenAudience(key: site, tokenServiceURL: portalTokenURL, exchangeForServer: site)
    }

    /// A token service read from a server's answer must be under one of the credential's scopes before the
    /// password goes there: otherwise any server in scope could collect it by naming its own token URL.
    private func checkScope(_ service: String, _ credential: Credential, site: String) throws(AuthenticationFailure) {
        guard TokenEndpoints.isInScope(service, of: credential) else {
            throw AuthenticationFailure(
                .authenticationRequired,
                "\(site) names the token service \(service), which is outside the scopes of the credential \"\(credential.name)\": "
                    + "add it to the scope or give it as the credential's tokenUrl",
                credential: credential.name)
        }
    }

    /// A portal's own REST API (`…/portal/sharing`) names itself as its owning system: it takes the portal token.
    private static func isPortal(site: String, ownedBy owner: String) -> Bool {
        guard site.hasSuffix("/sharing") else { return false }
        return TokenEndpoints.same(String(site.dropLast("/sharing".count)), owner)
    }

    /// `site`'s info, loaded once for every credential and caller that asks at the same time, then cached.
    func siteInfo(of site: String) async throws -> SiteInfo {
        let client = self.client
        let timeout = requestTimeout
        let network = networkRule(TokenEndpoints.infoURL(siteRoot: site))
        let load: @Sendable () async throws -> SiteInfo.Answer = {
            try await SiteInfo.load(site: site, client: client, timeout: timeout, network: network)
        }
        switch try await siteInfoCache.value(for: site, load: load) {
        case .info(let info): return info
        case .unusable(let reason): throw SiteInfo.LoadFailure(reason: reason, isRetryable: false)
        }
    }
}
