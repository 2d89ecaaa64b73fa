import FeatureQuerySupport
import Hummingbird
import Synchronization

/// A secured server's side of security: the token endpoints its role serves and the gate in front of its
/// secured services.
struct SecurityHandler: Sendable {
    let security: SampleSecurity

    var authority: SampleTokenAuthority { security.authority }

    /// Answers a security endpoint; a plain 404 for one this server's role does not serve.
    func answer(_ endpoint: SecurityEndpoint, request: SampleRequest, parameters: RequestParameters, origin: String) -> Response {
        switch (endpoint, security.role) {
        case (.admin, _):
            return SecurityAdmin.answer(request, authority: authority)
        case (.portalGenerateToken, .portal):
            return generateToken(request, parameters: parameters)
        case (.serverGenerateToken, .standalone):
            guard request.method == .post else { return getRefused() }
            return respond { (state: inout AuthorityState) throws(TokenEndpointError) -> Response in
                state.counters.serverGenerateToken += 1
                return SecurityResponses.generated(try state.generateToken(parameters, audience: .server(origin)))
            }
        case (.oauthToken, .portal):
            return respond { (state: inout AuthorityState) throws(TokenEndpointError) -> Response in
                state.counters.oauthToken[parameters["grant_type"] ?? "", default: 0] += 1
                return SecurityResponses.oauth(try state.oauthToken(parameters))
            }
        case (.oauthRevoke, .portal):
            return respond { (state: inout AuthorityState) throws(TokenEndpointError) -> Response in
                state.counters.revoke += 1
                try state.revoke(parameters)
                return SecurityResponses.body(Array("{\"success\":true}".utf8))
            }
        case (.oauthAuthorize, .portal):
            return OAuthAuthorizePage.answer(parameters, authority: authority)
        case (.portalInfo, .portal):
            return portalInfo(origin: origin)
        default:
            return SecurityResponses.page("404 Not Found", "The requested URL was not found on this server.", status: 404)
        }
    }

    /// The refusal for a secured request, nil to let it through.
    func refusal(token: String?, referer: String?, origin: String) -> SecurityRefusal? {
        let role = security.role
        return authority.state.withLock { state in
            var audiences: [TokenAudience] = [.server(origin)]
            if role == .portal || (role == .federated && state.knobs.federatedAcceptsPortalTokens) { audiences.append(.portal) }
            return state.check(token: token, referer: referer, accepts: audiences)
        }
    }

    /// `tokenServicesUrl`, `owningSystemUrl` and the short-lived token validity (minutes) for `/rest/info`.
    func authInfo(origin: String) -> SecurityAuthInfo {
        let (portal, minutes) = authority.state.withLock { state in
            (state.portalOrigin, max(1, state.knobs.tokenLifetimeSeconds / 60))
        }
        switch security.role {
        case .standalone:
            return SecurityAuthInfo(tokenServicesURL: origin + SecurityPaths.serverTokens, owningSystemURL: nil, validityMinutes: minutes)
        case .portal, .federated:
            let portalOrigin = portal ?? origin
            return SecurityAuthInfo(
                tokenServicesURL: portalOrigin + SecurityPaths.portalREST + "/generateToken",
                owningSystemURL: portalOrigin + SecurityPaths.portalMount, validityMinutes: minutes)
        }
    }

    /// Whether a secured request must carry an API key on the OGC face, and whether it does.
    func acceptsOGC(_ request: SampleRequest, bearer: String?) -> Bool {
        let offered = [request.header("X-API-Key"), bearer, request.parameter("apiKey"), request.parameter("api_key")].compactMap { $0 }
        let keys = security.ogcAPIKeys
        return authority.state.withLock { state in
            let accepted = offered.contains { keys.contains($0) || state.apiKeys[$0] == true }
            if !accepted { state.counters.ogcUnauthorized += 1 }
            return accepted
        }
    }

    private func generateToken(_ request: SampleRequest, parameters: RequestParameters) -> Response {
        guard request.method == .post else { return getRefused() }
        if parameters["token"] != nil || parameters["serverUrl"] != nil {
            let referer = request.headers[.referer]
            return respond { (state: inout AuthorityState) throws(TokenEndpointError) -> Response in
                state.counters.exchange += 1
                return SecurityResponses.generated(try state.exchange(parameters, refererHeader: referer))
            }
        }
        return respond { (state: inout AuthorityState) throws(TokenEndpointError) -> Response in
            state.counters.generateToken += 1
            return SecurityResponses.generated(try state.generateToken(parameters, audience: .portal))
        }
    }

    private func portalInfo(origin: String) -> Response {
        var json = JSONWriter(capacity: 192)
        json.raw("{\"owningSystemUrl\":")
        json.string(origin + SecurityPaths.portalMount)
        json.raw(",\"authInfo\":{\"tokenServicesUrl\":")
        json.string(origin + SecurityPaths.portalREST + "/generateToken")
        json.raw(",\"isTokenBasedSecurity\":true}}")
        return SecurityResponses.body(json.bytes)
    }

    /// Token requests over GET put passwords in URLs: refused, as ArcGIS refuses them.
    private func getRefused() -> Response {
        SecurityResponses.error(.unableToGenerate("Token generation requires POST."))
    }

    /// Runs a grant under the authority's lock; its error becomes the endpoint's error body.
    private func respond(_ grant: (inout AuthorityState) throws(TokenEndpointError) -> Response) -> Response {
        authority.state.withLock { state in
            do throws(TokenEndpointError) {
                return try grant(&state)
            } catch {
                return SecurityResponses.error(error)
            }
        }
    }
}

/// What `/arcgis/rest/info` says about tokens on a secured server.
struct SecurityAuthInfo: Sendable, Hashable {
    var tokenServicesURL: String
    var owningSystemURL: String?
    var validityMinutes: Int
}
