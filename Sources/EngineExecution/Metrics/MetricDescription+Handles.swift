package import Metrics

/// The one way the worker's modules make a metric: from its ``MetricDescription``, with the label values
/// in the description's order, through the factory the module was given (never the global one behind its back).
///
/// Making a handle is not free (the factory registers the series): callers make each one once and keep it
/// (``LabelledHandles`` for labelled families).
extension MetricDescription {
    package func counter(_ factory: any MetricsFactory, _ values: String...) -> Counter {
        precondition(kind == .counter, "\(name) is a \(kind)")
        return Counter(label: name, dimensions: dimensions(values), factory: factory)
    }

    /// A counter of a fractional quantity (seconds waited).
    package func floatingPointCounter(_ factory: any MetricsFactory, _ values: String...) -> FloatingPointCounter {
        precondition(kind == .counter, "\(name) is a \(kind)")
        return FloatingPointCounter(label: name, dimensions: dimensions(values), factory: factory)
    }

    package func gauge(_ factory: any MetricsFactory, _ values: String...) -> Gauge {
        precondition(kind == .gauge, "\(name) is a \(kind)")
        return Gauge(label: name, dimensions: dimensions(values), factory: factory)
    }

    /// A histogram of durations (Prometheus shows seconds).
    package func timer(_ factory: any MetricsFactory, _ values: String...) -> Metrics.Timer {
        precondition(kind == .histogram, "\(name) is a \(kind)")
        return Metrics.Timer(label: name, dimensions: dimensions(values), factory: factory)
    }

    /// The label names paired with `values`, in the description's order: Prometheus keeps one series per order,
    /// so the order is fixed here for every caller.
    private func dimensions(_ values: [String]) -> [(String, String)] {
        precondition(values.count == labels.count, "\(name) takes the labels \(labels), got \(values.count) values")
        return Array(zip(labels, values))
    }
}
