import Kafka
import Synchronization

/// The consumer's calls into the worker (rebalances, commit answers), made before the consumer and pointed at
/// the worker's core once the core exists.
///
/// The consumer takes its handlers when it is made, and the core needs the consumer when it is made (to store
/// offsets, pause partitions, read the group's state): one of the two must come first. The consumer does, so
/// the core holds it as a plain constant; these callbacks are the one late link. They are connected right after
/// the core is made, before anything runs, and librdkafka calls them only from the consumer's poll loop.
final class ConsumerCallbacks: Sendable {
    /// Weak: the core holds the consumer, which holds these callbacks, so a strong reference would keep both
    /// (and librdkafka's client) alive forever.
    private struct Target {
        weak var core: WorkerCore?
    }

    private let target = Mutex(Target())

    /// Sends the consumer's calls to `core` from now on.
    func connect(_ core: WorkerCore) {
        target.withLock { $0.core = core }
    }

    /// See ``WorkerCore/rebalance(_:)``.
    func rebalance(_ event: KafkaRebalanceEvent) async {
        await target.withLock { $0.core }?.rebalance(event)
    }

    /// See ``WorkerCore/committed(_:)``: on the consumer's commit or poll thread, kept short.
    func committed(_ outcome: KafkaCommitOutcome) {
        target.withLock { $0.core }?.committed(outcome)
    }
}
