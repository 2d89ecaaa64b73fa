import EngineExecution
package import Logging
package import Metrics
import ServiceLifecycle

/// Runs ``HeapTrim`` every ``interval`` (the `memoryTrimInterval` setting) for as long as the worker runs.
///
/// Why on a timer rather than after each burst: a burst has many causes (a rebalance, an outage's recovery, a
/// backlog, one large result), and a timer sees every one of them without a hook in each. A trim walks the
/// arenas' free chunks; in a worker at 7,000 requests/s it took 0.2–0.4 ms (docs/performance, "Cost of the heap
/// trim"), so once a minute costs nothing a request would notice. Pages it gives back that are used again cost
/// a page fault each, once. `query_worker_memory_trimmed_bytes_total` counts what it gave back, and a debug log
/// line gives each trim's time.
///
/// A process-wide concern: the executable runs one, beside its worker (tests that run several workers in one
/// process run none).
package struct HeapTrimService: Service {
    /// Time between trims.
    package let interval: Duration
    private let released: Counter
    private let logger: Logger

    /// `nil` when `interval` is zero (trimming off).
    package init?(interval: Duration, metricsFactory: any MetricsFactory = MetricsSystem.factory, logger: Logger) {
        guard interval > .zero else { return nil }
        self.interval = interval
        self.released = MetricCatalog.memoryTrimmedBytes.counter(metricsFactory)
        self.logger = logger
    }

    /// Trims every ``interval`` until the group shuts down or the task is cancelled.
    package func run() async throws {
        do {
            try await cancelWhenGracefulShutdown { () async throws -> Void in
                while true {
                    try await Task.sleep(for: interval)
                    trimOnce()
                }
            }
        } catch is CancellationError {
            // Shutdown: nothing to finish.
        }
    }

    /// One trim, counted and logged.
    @discardableResult
    func trimOnce() -> HeapTrim.Result? {
        guard let result = HeapTrim.trim() else { return nil }
        released.increment(by: Int64(result.releasedBytes))
        logger.debug(
            "heap trimmed",
            metadata: [
                "releasedBytes": .stringConvertible(result.releasedBytes),
                "durationMs": .stringConvertible(result.duration / .milliseconds(1)),
            ])
        return result
    }
}
