/// One metric the worker exposes: its full name, its Prometheus type, its labels in the order every series
/// is created with, and its `# HELP` text.
///
/// Plain data. Each module declares the metrics it makes beside the code that makes them (``EngineMetrics``
/// here, `TokenMetrics` in Authentication, the worker's own in QueryWorker's `MetricCatalog`), and the
/// worker's catalog lists them all for the ops endpoint (its HELP lines) and `docs/operations.md`: a metric
/// is named in exactly one place. It lives here, in the lowest module that makes metrics, because every
/// module that does depends on this one.
package struct MetricDescription: Sendable, Hashable, CustomStringConvertible {
    /// What every metric's name starts with.
    package static let prefix = "query_worker_"

    /// The metric's Prometheus type, and which swift-metrics type makes it.
    package enum Kind: String, Sendable, Hashable {
        /// `Counter` (or `FloatingPointCounter` for a counter of seconds).
        case counter
        /// `Gauge`.
        case gauge
        /// `Metrics.Timer`: a histogram of durations in seconds.
        case histogram
    }

    /// The full name (`query_worker_…`), as Prometheus shows it.
    package let name: String
    package let kind: Kind
    /// The label names, in the order every series of this metric is made with (Prometheus treats two orders
    /// as two series).
    package let labels: [String]
    /// One sentence for `# HELP`: what is counted, and when.
    package let help: String

    package init(_ name: String, _ kind: Kind, labels: [String] = [], help: String) {
        self.name = Self.prefix + name
        self.kind = kind
        self.labels = labels
        self.help = help
    }

    package var description: String {
        labels.isEmpty ? "\(name) (\(kind))" : "\(name){\(labels.joined(separator: ","))} (\(kind))"
    }
}
