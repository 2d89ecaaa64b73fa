import QueryWorker
import EngineExecution

/// The `# HELP` text of each metric, by its exposed name: swift-metrics has no place for it, so the exposition
/// adds it (``MetricsExposition``). A name without an entry gets no HELP line.
package struct MetricHelp: Sendable, Hashable {
    /// Help text by metric name (`query_worker_outcomes_total`).
    package var entries: [String: String]

    package init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    package subscript(name: String) -> String? { entries[name] }

    /// The worker's catalog (`MetricCatalog`, the one list of names and help texts the metrics, logs and alerts
    /// share).
    package static let worker = MetricHelp(Dictionary(MetricCatalog.all.map { ($0.name, $0.help) }) { first, _ in first })
}
