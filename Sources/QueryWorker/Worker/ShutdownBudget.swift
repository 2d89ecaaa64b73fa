import Logging
import ServiceLifecycle

/// How long each step of a graceful shutdown may take, so that the whole is bounded whatever Kafka and the
/// feature services do.
///
/// The steps run in the service group's order, worker first:
/// 1. ``requests``: running requests may finish (`shutdownTimeout`); the rest are cancelled, which aborts
///    their HTTP transfers.
/// 2. ``answers``: the outcomes are published and their delivery reports awaited. With the cluster
///    unreachable a report takes up to the producer's message timeout (two minutes), so when ``worker`` has
///    passed, the producer fails every undelivered message at once (their requests are left for redelivery)
///    and the worker's task is cancelled.
/// 3. ``consumerClose``: the consumer commits and leaves the group. librdkafka's close has no timeout; with a
///    cluster that stopped answering it never returns. After this budget the consumer's `run()` returns and
///    the close goes on alone on its thread.
/// 4. ``producerFlush``: what is still queued is flushed, the rest failed.
///
/// ``graceful`` is the service group's `maximumGracefulShutdownDuration`: past it, every service is
/// cancelled. ``total`` adds ``cancellation``: `query-worker run` exits then, even with a librdkafka call
/// still blocked on one of its threads (a process that exits ends its threads; nothing is left half-written,
/// because what was not committed is read again by the partitions' next owner). A second SIGTERM or SIGINT
/// exits at once. A container's stop grace period must cover ``total``: `shutdownTimeout` + ``margin``.
struct ShutdownBudget: Sendable, Hashable {
    /// Running requests may finish: the `shutdownTimeout` setting.
    var requests: Duration

    /// Publishing the outcomes of the drain, cancelled ones included, and waiting for their delivery reports
    /// (a producer's first message to a topic waits for the topic's metadata: most of a second).
    static let answers = Duration.seconds(5)
    /// The consumer's close: revoking (the worker's handler has nothing left to do), committing the stored
    /// offsets and leaving the group take milliseconds with a healthy cluster.
    static let consumerClose = Duration.seconds(5)
    /// The producer's flush of what is still queued; the producer's `run()` adds up to two seconds for the
    /// failed reports of what the flush left and for its thread to end (`KafkaProducer.stopTimeout(flushTimeout:)`).
    static let producerFlush = Duration.seconds(5)
    /// The producer's own time after its flush (see ``producerFlush``).
    static let producerAfterFlush = Duration.seconds(2)
    /// From the cancellation of every service to the process's exit.
    static let cancellation = Duration.seconds(3)

    /// What a graceful shutdown may take beyond `shutdownTimeout`: 20 s.
    static var margin: Duration { answers + consumerClose + producerFlush + producerAfterFlush + cancellation }

    init(shutdownTimeout: Duration) {
        requests = shutdownTimeout
    }

    /// The worker's part: requests, then their answers.
    var worker: Duration { requests + Self.answers }

    /// The service group's bound, after which it cancels every service.
    var graceful: Duration { worker + Self.consumerClose + Self.producerFlush + Self.producerAfterFlush }

    /// The bound of the whole shutdown: `query-worker run` has exited by then.
    var total: Duration { requests + Self.margin }
}

/// Runs a service whose graceful shutdown must end within `budget`: when the budget has passed,
/// `onOverrun` runs (it releases what the service may be waiting for) and the service's task is cancelled.
struct ShutdownDeadline: Service {
    let service: any Service
    let budget: Duration
    let logger: Logger
    let onOverrun: @Sendable () -> Void

    private enum Event { case finished, overrun, timerStopped }

    func run() async throws {
        let (service, budget) = (self.service, self.budget)
        try await withThrowingTaskGroup(of: Event.self) { group in
            group.addTask {
                try await service.run()
                return .finished
            }
            group.addTask {
                do {
                    try await gracefulShutdown()
                    try await Task.sleep(for: budget)
                    return .overrun
                } catch {
                    return .timerStopped
                }
            }
            while let event = try await group.next() {
                switch event {
                case .finished:
                    group.cancelAll()  // the timer
                case .overrun:
                    logger.warning(
                        "shutdown overran its budget; failing undelivered outcomes and cancelling",
                        metadata: ["service": "\(service)", "budget": "\(budget)"])
                    onOverrun()
                    group.cancelAll()
                case .timerStopped:
                    break
                }
            }
        }
    }
}
