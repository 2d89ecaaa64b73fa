package import Credentials
package import EngineExecution
import FeatureQuerySupport
package import Logging
import Synchronization
import Foundation

/// The credentials at work: for each request, what its target's credentials add (headers, libcurl's network
/// credentials), and for the token kinds one token per credential and audience, fetched on first use, shared by
/// every request, refreshed once before it expires and once when a service rejects it.
///
/// The owner of every ``TokenSlot`` and its ``TokenSlot/StateMachine``: the machines decide, this class keeps
/// them behind one lock, parks the requests that wait for a token call, and makes the calls (through its
/// ``TokenIssuer``) after releasing the lock. A token call runs in its own task, not the requesting one: it is shared, so it must not die with the
/// request that happened to start it (a superseded query); each waiting request can still be cancelled alone.
///
/// The store is swapped whole by ``replace(store:)`` (a reloaded file); requests already holding a token finish
/// with it.
package final class CredentialAuthenticator: RequestAuthenticator {
    let issuer: any TokenIssuer
    let resolver: SecretResolver
    let policy: TokenRefreshPolicy
    let logger: Logger
    let clock = ContinuousClock()
    let state: Mutex<State>
    /// Token calls and failed refreshes by credential name.
    let metrics: TokenMetrics

    struct State {
        var store: CredentialStore
        var tokens: [TokenSlot.Key: TokenSlot] = [:]
        var urls = URLCredentialsCache()
        var statistics: [String: AuthenticatorStatistics] = [:]
        var nextWaiter: UInt64 = 0

        /// What `query_worker_credential_cache_entries` shows, read under the lock and recorded outside it.
        var cacheSizes: CredentialCacheSizes { CredentialCacheSizes(tokens: tokens.count, urls: urls.count) }
    }

    package init(
        store: CredentialStore, resolver: SecretResolver, issuer: any TokenIssuer,
        policy: TokenRefreshPolicy = TokenRefreshPolicy(), logger: Logger, metrics: TokenMetrics = TokenMetrics()
    ) {
        self.issuer = issuer
        self.resolver = resolver
        self.policy = policy
        self.logger = logger
        self.metrics = metrics
        self.state = Mutex(State(store: store))
    }

    /// The configuration new requests use.
    package var store: CredentialStore { state.withLock { $0.store } }

    /// What has happened to `credential`'s tokens so far (zero for a credential without token calls).
    package func statistics(credential: String) -> AuthenticatorStatistics {
        state.withLock { $0.statistics[credential] ?? AuthenticatorStatistics() }
    }

    /// Token calls made for `credential` (each federated exchange counts as one call of its own).
    package func tokenCalls(credential: String) -> Int { statistics(credential: credential).tokenCalls }

    // MARK: RequestAuthenticator

    package func authentication(for url: String, credential name: String?) async throws -> AppliedAuthentication {
        try await compose(url: url, name: name, demand: .current)
    }

    package func rejected(
        _ applied: AppliedAuthentication, serviceCode: Int, for url: String, credential name: String?
    ) async throws -> AppliedAuthentication? {
        guard let token = applied.token else { return nil }
        state.withLock { $0.statistics[token.credential, default: AuthenticatorStatistics()].rejections += 1 }
        guard token.isRefreshable else {
            throw AuthenticationFailure(
                .credentialExpired,
                "the service refused the key or token of credential \"\(token.credential)\" (error \(serviceCode)): it "
                    + "is invalid or expired and can't be refreshed; give the credential a new one",
                credential: token.credential)
        }
        let replacing = Demand.replacing(generation: token.generation, sentAt: token.sentAt ?? clock.now)
        return try await compose(url: url, name: name, demand: replacing)
    }

    // MARK: Composing a request's credentials

    /// Whether a request wants the current token or one to replace a rejected token.
    enum Demand: Sendable {
        case current
        /// The request carrying the token of `generation` was sent at `sentAt` and rejected.
        case replacing(generation: UInt64, sentAt: ContinuousClock.Instant)
    }

    private func compose(url: String, name: String?, demand: Demand) async throws -> AppliedAuthentication {
        let chosen = try choose(url: url, name: name)
        var applied = try NetworkCredentials.applied(chosen, url: url, resolver: resolver)
        // What the engines key cached metadata by: the credentials that shaped the request, never a secret.
        if !chosen.isEmpty { applied.cacheIdentity = chosen.values.map(\.name).sorted().joined(separator: "+") }
        if let credential = chosen[.token] {
            try await addToken(of: credential, url: url, demand: demand, to: &applied)
        }
        return applied
    }

    /// The credential of each role for `url`: the most specific by scope, and the named one in its role.
    private func choose(url: String, name: String?) throws(AuthenticationFailure) -> [CredentialKind.Role: Credential] {
        let known = state.withLock { state in state.urls[url].map { ($0, state.store) } ?? (nil, state.store) }
        let entry: URLCredentials
        if let cached = known.0 {
            entry = cached
        } else {
            entry = URLCredentials(covering: known.1.credentials(for: url))
            let sizes = state.withLock { state in
                if state.store == known.1 { state.urls.store(entry, for: url, generation: state.urls.generation) }
                return state.cacheSizes
            }
            metrics.cacheEntries(sizes)
        }
        var chosen = entry.selection
        guard let name else { return chosen }
        if let named = entry.covering.first(where: { $0.name == name }) {
            chosen[named.kind.role] = named
            return chosen
        }
        guard let named = known.1.credential(named: name) else {
            throw AuthenticationFailure(
                .unknownCredential, "the credential \"\(name)\" is not configured on this worker (any more)", credential: name)
        }
        throw AuthenticationFailure(
            .credentialScopeMismatch,
            "the credential \"\(name)\" does not cover \(CredentialAuthenticator.origin(of: url)): its scope is "
                + named.scopes.map(\.description).joined(separator: ", "),
            credential: name)
    }

    /// The token audience of `credential` for `url`: remembered per URL, else asked of the issuer.
    private func audience(of credential: Credential, url: String) async throws -> TokenAudience {
        let now = clock.now
        let (cached, generation) = state.withLock { state in
            (state.urls[url]?.audiences[credential.name].flatMap { $0.until > now ? $0.audience : nil }, state.urls.generation)
        }
        if let cached { return cached }
        let audience = try await issuer.audience(for: credential, url: url)
        state.withLock { state in
            state.urls.storeAudience(audience, credential: credential.name, url: url, generation: generation, now: now)
        }
        return audience
    }

    private func addToken(
        of credential: Credential, url: String, demand: Demand, to applied: inout AppliedAuthentication
    ) async throws {
        switch credential.configuration {
        case .apiKey(let settings):
            let key = try resolver.secret(settings.key, credential: credential, field: "key").revealed()
            switch settings.placement {
            case .header:
                let value = settings.prefix.map { "\($0) \(key)" } ?? key
                applied.headers.append(.init(name: settings.parameter, value: value))
            case .query:
                applied.parameters.append(.init(name: settings.parameter, value: key))
            }
            applied.token = .init(credential: credential.name, generation: 0, key: "", isRefreshable: false)
        case .pregeneratedToken(let settings):
            if let expires = settings.expiresMilliseconds, WallClock.nowMilliseconds() >= expires {
                throw AuthenticationFailure(
                    .credentialExpired,
                    "the pre-generated token of credential \"\(credential.name)\" expired; generate a new one and update its secret",
                    credential: credential.name)
            }
            let token = try resolver.secret(settings.token, credential: credential, field: "token").revealed()
            applied.headers.append(.init(name: "X-Esri-Authorization", value: "Bearer \(token)"))
            applied.headers.append(.init(name: "Referer", value: settings.referer))
            applied.token = .init(credential: credential.name, generation: 0, key: "", isRefreshable: false)
        case .token, .oauthApp, .oauthUser, .oauth2:
            let audience = try await self.audience(of: credential, url: url)
            let (token, presentation) = try await self.token(of: credential, audience: audience, demand: demand)
            if presentation.requiresTLS, !url.lowercased().hasPrefix("https:") {
                throw AuthenticationFailure(
                    .insecureTransport,
                    "the token of credential \"\(credential.name)\" was issued for https only (ssl: true) and "
                        + "\(CredentialAuthenticator.origin(of: url)) is plain http; query the service over https",
                    credential: credential.name)
            }
            let header = credential.kind == .oauth2 ? "Authorization" : "X-Esri-Authorization"
            applied.headers.append(.init(name: header, value: "Bearer \(token.secret.revealed())"))
            if let referer = presentation.referer { applied.headers.append(.init(name: "Referer", value: referer)) }
            applied.token = .init(
                credential: credential.name, generation: token.generation, key: audience.key, isRefreshable: true,
                sentAt: clock.now, expiringFrom: token.refreshAfter)
        case .password, .certificate, .serverTrust:
            break
        }
    }

    /// `scheme://host[:port]` of a URL, for messages (never its path or query).
    static func origin(of url: String) -> String {
        guard let separator = url.range(of: "://") else { return "the service" }
        let authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last ?? authority[...]
        return String(url[..<separator.upperBound]) + host
    }
}

/// What happened to one credential's tokens: for operators' metrics and for the tests that count token calls.
package struct AuthenticatorStatistics: Sendable, Hashable {
    /// Token calls started (one per refresh; a federated exchange makes its portal call inside it).
    package var tokenCalls = 0
    /// Token calls that failed.
    package var failedTokenCalls = 0
    /// Rejections (498/499) reported by the engines for this credential's tokens.
    package var rejections = 0

    package init() {}
}
