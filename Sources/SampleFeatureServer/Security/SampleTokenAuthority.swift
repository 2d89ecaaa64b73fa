import Synchronization

/// A token service shared by secured sample servers: users and passwords, OAuth clients, the tokens it
/// issued, knobs and counters. One authority behind a portal server and the servers federated with it;
/// another for a standalone server (or share one: a standalone server's tokens are for it alone anyway);
/// a second portal's authority for a server owned by another portal.
///
/// Everything can be changed while the servers run (tests shorten token lifetimes, force 498s, revoke
/// every token) and is also reachable over HTTP at `/_sample/security` on each server that uses it.
package final class SampleTokenAuthority: Sendable {
    let state: Mutex<AuthorityState>

    /// An authority with these users and OAuth clients (the documented test defaults unless given).
    package init(
        users: [SampleUser] = SampleTokenAuthority.defaultUsers,
        clients: [SampleOAuthClient] = SampleTokenAuthority.defaultClients,
        apiKeys: [String] = [SampleTokenAuthority.defaultAPIKey],
        knobs: SampleSecurityKnobs = SampleSecurityKnobs()
    ) {
        var state = AuthorityState(
            users: Dictionary(users.map { ($0.username, $0) }, uniquingKeysWith: { $1 }),
            clients: Dictionary(clients.map { ($0.clientID, $0) }, uniquingKeysWith: { $1 }),
            knobs: knobs)
        for key in apiKeys { state.apiKeys[key] = true }
        self.state = Mutex(state)
    }

    /// The ArcGIS API key of the default configuration (a test value): the secured services of every server
    /// of the authority take it in place of a token.
    package static let defaultAPIKey = "sample-api-key"

    /// `viewer` / `viewer-password` (may use secured services) and `outsider` / `outsider-password` (signs in,
    /// but every secured resource answers 403). Test values, not secrets.
    package static let defaultUsers = [
        SampleUser(username: "viewer", password: "viewer-password"),
        SampleUser(username: "outsider", password: "outsider-password", permitted: false),
    ]

    /// `sample-app` (secret `sample-app-secret`, client_credentials and authorization code) and
    /// `sample-public-app` (no secret: authorization code with PKCE), both registered for
    /// `http://127.0.0.1:8765/callback` and `urn:ietf:wg:oauth:2.0:oob`.
    package static let defaultClients = [
        SampleOAuthClient(clientID: "sample-app", clientSecret: "sample-app-secret", redirectURIs: defaultRedirectURIs),
        SampleOAuthClient(clientID: "sample-public-app", clientSecret: nil, redirectURIs: defaultRedirectURIs),
    ]

    /// The redirect URIs the default clients have registered.
    package static let defaultRedirectURIs = ["http://127.0.0.1:8765/callback", "urn:ietf:wg:oauth:2.0:oob"]

    // MARK: Knobs

    /// The knobs in force.
    package var knobs: SampleSecurityKnobs { state.withLock { $0.knobs } }

    /// Changes knobs on the running servers, e.g. `authority.updateKnobs { $0.tokenLifetimeSeconds = 2 }`.
    /// Lifetimes apply to tokens issued afterwards.
    package func updateKnobs(_ change: (inout SampleSecurityKnobs) -> Void) {
        state.withLock { change(&$0.knobs) }
    }

    /// Answers the next `count` secured requests (on any server of this authority) with `code` (498, 499
    /// or 403) in `shape`, whatever token they carry.
    package func rejectNext(_ count: Int, code: Int = 498, shape: SampleRejectionShape = .errorBody) {
        guard count > 0 else { return }
        state.withLock { $0.forced.append(ForcedRejection(remaining: count, code: code, shape: shape)) }
    }

    /// Revokes every access and server token issued so far (the "token revoked" case: the next secured
    /// request with one gets 498); refresh tokens and pending codes too when asked.
    package func revokeAllTokens(includingRefreshTokens: Bool = false) {
        state.withLock { $0.revokeAll(includingRefreshTokens: includingRefreshTokens) }
    }

    // MARK: Users and clients

    /// Adds a user or replaces one of the same name (a password change: old tokens stay valid).
    package func setUser(_ user: SampleUser) {
        state.withLock { state in
            state.users[user.username] = user
            state.failedSignIns[user.username] = nil
        }
    }

    /// Removes a user; their tokens stay valid until they expire or are revoked.
    package func removeUser(_ username: String) {
        state.withLock { $0.users[username] = nil }
    }

    /// Adds an API key (valid) or makes an expired one valid again.
    package func addAPIKey(_ key: String) {
        state.withLock { $0.apiKeys[key] = true }
    }

    /// Expires an API key: requests with it get 498 from then on (a client cannot refresh an API key).
    package func expireAPIKey(_ key: String) {
        state.withLock { state in
            if state.apiKeys[key] != nil { state.apiKeys[key] = false }
        }
    }

    /// Adds an OAuth client or replaces one with the same id.
    package func setClient(_ client: SampleOAuthClient) {
        state.withLock { $0.clients[client.clientID] = client }
    }

    // MARK: Counters and state

    /// Token calls and rejections so far.
    package var counters: SampleSecurityCounters { state.withLock { $0.counters } }

    /// Zeroes the counters (and the wrong-password streaks the lockout counts).
    package func resetCounters() {
        state.withLock { state in
            state.counters = SampleSecurityCounters()
            state.failedSignIns.removeAll()
        }
    }

    /// Access and server tokens issued and not revoked (expired ones included).
    package var issuedTokenCount: Int { state.withLock { $0.tokens.count } }

    /// The portal's URL (`http://host:port/portal`) once a server with the ``SampleSecurityRole/portal`` role
    /// listens; federated servers report it as `owningSystemUrl`.
    package var portalURL: String? { state.withLock { $0.portalOrigin.map { $0 + SecurityPaths.portalMount } } }

    /// Whether the server at `url` (any URL on it) is federated with this authority's portal.
    package func isFederated(_ url: String) -> Bool {
        guard let origin = SecurityPaths.origin(of: url) else { return false }
        return state.withLock { $0.federatedOrigins.contains(origin) }
    }

    /// Records a server listening at `origin` in its role.
    func attach(origin: String, role: SampleSecurityRole) {
        state.withLock { state in
            switch role {
            case .portal:
                state.portalOrigin = origin
                state.federatedOrigins.insert(origin)
            case .federated:
                state.federatedOrigins.insert(origin)
            case .standalone:
                break
            }
        }
    }
}
