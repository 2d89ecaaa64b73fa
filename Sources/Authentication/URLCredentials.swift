import Credentials

/// What the current store says about one target URL, remembered so that the thousands of requests to one
/// layer don't each parse the URL against every scope and ask the issuer where the layer's tokens come from.
///
/// Entries belong to one configuration: a reload empties the cache (``CredentialAuthenticator/replace(store:)``)
/// and an entry computed from the replaced store is not kept.
struct URLCredentials {
    /// Every credential covering the URL, most specific first (``CredentialStore/credentials(for:)``).
    var covering: [Credential]
    /// The token audience each token credential needs for this URL, until it expires (the issuer reads a
    /// server's `rest/info` to find it, and a server may be re-federated).
    var audiences: [String: (audience: TokenAudience, until: ContinuousClock.Instant)] = [:]

    init(covering: [Credential]) { self.covering = covering }

    /// The most specific credential of each role.
    var selection: [CredentialKind.Role: Credential] {
        var chosen: [CredentialKind.Role: Credential] = [:]
        for credential in covering where chosen[credential.kind.role] == nil { chosen[credential.kind.role] = credential }
        return chosen
    }
}

/// The cache of ``URLCredentials`` by URL, bounded: when full it starts again (a worker queries a bounded set
/// of layers; a flood of distinct URLs must not grow it without end).
///
/// Keyed by the URL without its query and fragment: scopes match scheme, host, port and path only, and a token's
/// audience is the service's, so `…/0/query?where=A` and `…/0/query?where=B` share one entry. (Keyed by the whole
/// URL, every distinct where clause was a miss and an entry: the soak saw the cache fill with them.)
struct URLCredentialsCache {
    static let capacity = 4_096
    /// How long an audience is trusted before the issuer is asked again (as long as it caches `rest/info`).
    static let audienceLifetime: Duration = .seconds(600)

    private var entries: [String: URLCredentials] = [:]
    /// Incremented by every reload, so a lookup begun before one does not store what it found.
    private(set) var generation: UInt64 = 0

    subscript(url: String) -> URLCredentials? { entries[Self.key(url)] }

    /// `url` up to its query or fragment.
    static func key(_ url: String) -> String { String(url.prefix { $0 != "?" && $0 != "#" }) }

    /// URLs held (what `query_worker_credential_cache_entries{cache="urls"}` shows).
    var count: Int { entries.count }

    mutating func store(_ entry: URLCredentials, for url: String, generation: UInt64) {
        guard generation == self.generation else { return }
        let key = Self.key(url)
        if entries.count >= Self.capacity, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        entries[key] = entry
    }

    mutating func storeAudience(
        _ audience: TokenAudience, credential: String, url: String, generation: UInt64, now: ContinuousClock.Instant
    ) {
        let key = Self.key(url)
        guard generation == self.generation, var entry = entries[key] else { return }
        entry.audiences[credential] = (audience, now + Self.audienceLifetime)
        entries[key] = entry
    }

    mutating func reset() {
        entries.removeAll()
        generation += 1
    }
}
