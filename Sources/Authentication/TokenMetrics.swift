import EngineExecution
import FeatureQuerySupport
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
                succeeded: MetricCatalog.tokenFetches.counter(factory, name, "ok"),
                failed: MetricCatalog.tokenFetches.counter(factory, name, "failed"),
                refreshFailed: MetricCatalog.tokenRefreshFailures.counter(factory, name))
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
