package import EngineExecution
package import Metrics

/// What the authenticator counts: token calls by credential name and result, failed refreshes of a token the
/// credential already had, and what its caches hold. Labelled by the credential's configured name only, never a
/// secret or a URL; the names are bounded by the credentials file.
package final class TokenMetrics: Sendable {
    private struct Handles: Sendable {
        var succeeded: Counter
        var failed: Counter
        var refreshFailed: Counter
    }

    private let credentials: LabelledHandles<String, Handles>
    private let tokenSlots: Gauge
    private let urlEntries: Gauge

    /// Metrics made through `factory` (the global one unless a caller passes its own).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        credentials = LabelledHandles { name in
            Handles(
                succeeded: Self.tokenFetches.counter(factory, name, "ok"),
                failed: Self.tokenFetches.counter(factory, name, "failed"),
                refreshFailed: Self.tokenRefreshFailures.counter(factory, name))
        }
        tokenSlots = Self.credentialCacheEntries.gauge(factory, "tokens")
        urlEntries = Self.credentialCacheEntries.gauge(factory, "urls")
    }

    /// The authenticator holds `sizes.tokens` token slots (one per credential and audience in use, each with its token
    /// and waiters) and the covering credentials of `sizes.urls` URLs: both bounded (by the credentials file and by
    /// the URL cache's capacity), so a climb under a steady mix of layers is a leak.
    func cacheEntries(_ sizes: CredentialCacheSizes) {
        tokenSlots.record(sizes.tokens)
        urlEntries.record(sizes.urls)
    }

    /// A token call for `credential` ended. `renewing`: it was to replace a token the credential had (due for
    /// refresh, or rejected by a service), so its failure is also a failed refresh.
    func tokenCall(credential: String, succeeded: Bool, renewing: Bool) {
        let handles = credentials[credential]
        if succeeded {
            handles.succeeded.increment()
        } else {
            handles.failed.increment()
            if renewing { handles.refreshFailed.increment() }
        }
    }
}

/// What the authenticator's caches hold, read under its lock and recorded after it.
struct CredentialCacheSizes {
    /// Token slots: one per credential and audience in use.
    var tokens: Int
    /// URLs whose covering credentials were looked up.
    var urls: Int
}

/// The metrics ``TokenMetrics`` makes, named here; the worker's catalog lists them with its own.
extension TokenMetrics {
    package static let tokenFetches = MetricDescription(
        "token_fetches_total", .counter, labels: ["credential", "result"],
        help: "Token calls by credential name and result (ok or failed).")
    package static let tokenRefreshFailures = MetricDescription(
        "token_refresh_failures_total", .counter, labels: ["credential"],
        help: "Failed token calls that were to replace a token the credential already had (due or rejected).")
    package static let credentialCacheEntries = MetricDescription(
        "credential_cache_entries", .gauge, labels: ["cache"],
        help: "What the authenticator holds: token slots (cache=\"tokens\", one per credential and audience in use) "
            + "and URLs whose covering credentials were looked up (cache=\"urls\", at most 4,096).")
}
