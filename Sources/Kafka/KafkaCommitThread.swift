import Dispatch
import Foundation
import Synchronization
import FeatureQuerySupport

/// Commits a consumer's stored offsets on a thread of its own, as soon as they are stored (see
/// ``KafkaCommitScheduler`` for why), and hands each answer to the consumer's commit handler at once.
///
/// Not on the poll thread: librdkafka serves commit callbacks only inside `rd_kafka_consumer_poll`, which the
/// poll thread does not call while the reader's buffer is full (a backlog just assigned), so a refused commit
/// was heard of a quarter of a second late: long enough to publish a hundred answers that can't be committed.
/// A synchronous commit here (its own temporary queue) is answered as soon as the coordinator answers.
final class KafkaCommitThread: Sendable {
    private let scheduler = Mutex(KafkaCommitScheduler())
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    init() {}

    /// Offsets were stored: commit them now, or after the commit in flight.
    func request() {
        if scheduler.withLock({ $0.stored() }) { wake.signal() }
    }

    /// Starts the thread (once). It holds `handle` until it exits.
    func start(handle: RDKafkaHandle, onOutcome: @escaping @Sendable (KafkaCommitOutcome) -> Void) {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            defer { exited.signal() }
            while true {
                wake.wait()
                if stopping.load(ordering: .relaxed) { return }
                repeat {
                    onOutcome(KafkaConsumer.commitSynchronously(handle.pointer))
                } while !stopping.load(ordering: .relaxed) && scheduler.withLock({ $0.completed() })
            }
        }
        thread.name = "kafka-commit"
        thread.start()
    }

    /// Stops the thread before the consumer closes. False when a commit in flight kept it past `timeout`: it
    /// then exits alone once that commit returns.
    func stop(timeout: Duration) -> Bool {
        guard started.load(ordering: .sequentiallyConsistent) else { return true }
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake.signal()
        return exited.wait(timeout: .now() + .milliseconds(Int(clamping: timeout.clampedMilliseconds))) == .success
    }
}
