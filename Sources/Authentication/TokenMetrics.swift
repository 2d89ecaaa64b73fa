package import EngineExecution
package import Metrics

/// What the authenticator counts: token calls by credential name and result, and failed refreshes of a
/// token the credential already had. Labelled by the credential's configured name only, never a secret or a
/// URL; the names are bounded by the credentials file.
package final class TokenMetrics: Sendable {
    private struct Handles: Sendable {
        var succeeded: Counter
        var failed: Counter
        var refreshFailed: Counter
    }

    private let credentials: LabelledHandles<String, Handles>

    /// Metrics made through `factory` (the global one unless a caller passes its own).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        credentials = LabelledHandles { name in
            Handles(
                succeeded: Self.tokenFetches.counter(factory, name, "ok"),
                failed: Self.tokenFetches.counter(factory, name, "failed"),
                refreshFailed: Self.tokenRefreshFailures.counter(factory, name))
        }
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

/// The metrics ``TokenMetrics`` makes, named here; the worker's catalog lists them with its own.
extension TokenMetrics {
    package static let tokenFetches = MetricDescription(
        "token_fetches_total", .counter, labels: ["credential", "result"],
        help: "Token calls by credential name and result (ok or failed).")
    package static let tokenRefreshFailures = MetricDescription(
        "token_refresh_failures_total", .counter, labels: ["credential"],
        help: "Failed token calls that were to replace a token the credential already had (due or rejected).")
}
