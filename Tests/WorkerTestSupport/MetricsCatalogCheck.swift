import EngineExecution
package import MetricsTestKit
import QueryWorker

/// Compares what code made through a `TestMetrics` with ``MetricCatalog``: every metric's name is in the
/// catalog, of the catalog's kind, with exactly the catalog's label names in the catalog's order.
package enum MetricsCatalogCheck {
    /// One line per metric that does not match its catalog entry (empty when all do).
    package static func mismatches(_ metrics: TestMetrics) -> [String] {
        var made: [(label: String, kind: MetricDescription.Kind, labels: [String])] = []
        made += metrics.counters.map { ($0.label, .counter, $0.dimensions.map(\.0)) }
        made += metrics.recorders.map { ($0.label, $0.aggregate ? .histogram : .gauge, $0.dimensions.map(\.0)) }
        made += metrics.timers.map { ($0.label, .histogram, $0.dimensions.map(\.0)) }
        made += metrics.meters.map { ($0.label, .gauge, $0.dimensions.map(\.0)) }
        return made.compactMap { metric in
            guard let entry = MetricCatalog.metric(named: metric.label) else { return "\(metric.label): not in the catalog" }
            if entry.kind != metric.kind { return "\(metric.label): made as a \(metric.kind), catalogued as a \(entry.kind)" }
            if entry.labels != metric.labels { return "\(metric.label): labels \(metric.labels), catalogued \(entry.labels)" }
            return nil
        }
    }
}
