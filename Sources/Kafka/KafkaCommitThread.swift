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
///
/// Commits are spaced by at least ``spacing``: after each, the thread waits out the rest of it before the next,
/// and stores made meanwhile ride on that next commit. Without the spacing a busy worker committed after every
/// coordinator round trip (about a thousand commits a second at 7,000 answers a second): each a wake of this
/// thread and an OffsetCommit for the cluster, 4 % of the worker's CPU per `count` request in the profile.
/// With it, an answer's offset is still committed within `spacing` plus a round trip of its store.
final class KafkaCommitThread: Sendable {
    /// The least time from one commit's start to the next one's.
    static let spacing = Duration.milliseconds(5)

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
                    let sent = ContinuousClock.now
                    onOutcome(KafkaConsumer.commitSynchronously(handle.pointer))
                    waitOutSpacing(since: sent)
                } while !stopping.load(ordering: .relaxed) && scheduler.withLock({ $0.completed() })
            }
        }
        thread.name = "kafka-commit"
        thread.start()
    }

    /// Waits until ``spacing`` has passed since `sent`, or the thread is told to stop (``stop(timeout:)`` signals
    /// the semaphore, which ends the wait early). Requests meanwhile only mark the scheduler (a commit is still
    /// "in flight" for it), so they do not signal the semaphore.
    private func waitOutSpacing(since sent: ContinuousClock.Instant) {
        let left = sent + Self.spacing - ContinuousClock.now
        guard left > .zero, !stopping.load(ordering: .relaxed) else { return }
        // At most `spacing` (a few milliseconds), so the microseconds cannot overflow.
        let microseconds = Int(left.components.seconds) * 1_000_000 + Int(left.components.attoseconds / 1_000_000_000_000)
        if wake.wait(timeout: .now() + .microseconds(microseconds)) == .success {
            wake.signal()  // the stop's signal: leave it for the loop's own wait
        }
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
