import Dispatch
import Foundation
package import Logging
import ServiceLifecycle
import Synchronization
import FeatureQuerySupport

/// Publishes outcomes and commits the consumer group's offsets together, in Kafka transactions: a consumer
/// reading the outcome topics with `isolation.level=read_committed` sees each outcome once, even when a worker
/// dies mid-way (its open transaction is aborted, and the next owner of its partitions answers again from the
/// last committed offsets).
///
/// Outcomes gather for ``KafkaTransactionConfiguration/interval`` and go out in one transaction with the
/// offsets stored meanwhile (``store(_:)``); ``StateMachine`` holds the rules. The transactional calls
/// block, so they run on a thread of their own; the producer's ``KafkaProducer/run()`` must be running too.
/// A fatal error (a newer instance with the same `transactional.id` fenced this one) stops the publisher and
/// fails what waits; the producer's service then throws it.
package final class KafkaTransactions: Service, Sendable {
    let producer: KafkaProducer
    let consumer: KafkaConsumer
    let configuration: KafkaTransactionConfiguration
    let logger: Logger
    let onOutcome: @Sendable (KafkaTransactionOutcome) -> Void
    let shared = Mutex(Shared())
    let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// The state and who waits on it, under one lock.
    struct Shared {
        var state = StateMachine()
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<KafkaTransactionPublication, Never>] = [:]
        var fallbacks: [UInt64: @Sendable () -> [KafkaProducerMessage]] = [:]
        /// Entries sent as their fallback in the transaction being run.
        var replaced: [UInt64: KafkaError] = [:]
        var flushes: [UInt64: (target: UInt64, continuation: CheckedContinuation<Bool, Never>)] = [:]
        var flushRequested = false
        /// Set when the producer failed fatally: every later call fails with it.
        var fatal: KafkaError?
    }

    /// `producer` must have a `transactional.id`; `consumer` is the group member whose offsets the transactions
    /// commit. `onOutcome` hears how each transaction ended (keep it short).
    package init(
        producer: KafkaProducer, consumer: KafkaConsumer, configuration: KafkaTransactionConfiguration = .init(),
        logger: Logger, onOutcome: @escaping @Sendable (KafkaTransactionOutcome) -> Void = { _ in }
    ) {
        self.producer = producer
        self.consumer = consumer
        self.configuration = configuration
        self.logger = logger
        self.onOutcome = onOutcome
    }

    // MARK: The worker's calls

    /// Publishes `messages` in the next transaction, with the offsets stored by then, and returns once that
    /// transaction committed (or the outcome was dropped). `appended` runs once the messages are in the
    /// transaction's queue, before any transaction can be sealed without them: the caller stores the offsets
    /// they complete there (``store(_:)``). It does not run for an outcome refused at once (dropped).
    /// `fallback` makes the messages sent instead if the cluster refuses these as too large. `offset` is the
    /// request's, and `resumeOffset` where the partition's next owner could start now (see
    /// ``StateMachine/Entry``): with them, an answer committed past the partition's committed offset is named
    /// in the commit's metadata and not repeated by the next owner.
    package func publish(
        _ messages: [KafkaProducerMessage], partition: KafkaTopicPartition, offset: Int64? = nil, resumeOffset: Int64? = nil,
        fallback: @escaping @Sendable () -> [KafkaProducerMessage], appended: () -> Void
    ) async -> KafkaTransactionPublication {
        await withCheckedContinuation { continuation in
            let refusal: KafkaError? = shared.withLock { shared in
                if let fatal = shared.fatal { return fatal }
                shared.nextID += 1
                let id = shared.nextID
                let entry = StateMachine.Entry(
                    id: id, messages: messages, partition: partition, offset: offset, resumeOffset: resumeOffset)
                guard shared.state.beginAppend(entry) else {
                    return KafkaError(code: .shutdown, message: "\(partition) is no longer this member's, or the publisher stopped")
                }
                shared.waiters[id] = continuation
                shared.fallbacks[id] = fallback
                return nil
            }
            if let refusal {
                continuation.resume(returning: .dropped(refusal))
                return
            }
            appended()
            shared.withLock { $0.state.endAppend() }
            wake.signal()
        }
    }

    /// Offsets made committable (the next offset to read, per partition): committed with the next transaction.
    package func store(_ offsets: [KafkaTopicPartition: Int64]) {
        shared.withLock { $0.state.store(offsets) }
    }

    /// Partitions assigned to this member: their outcomes may be published. `inherited`: what their previous
    /// owner committed (``KafkaConsumer/inheritedOffsets(_:)``), so the answers it named past its offset stay
    /// named until this member's commits pass them.
    package func assign(_ partitions: [KafkaTopicPartition], inherited: [KafkaTopicPartition: StateMachine.Inherited] = [:]) {
        shared.withLock { $0.state.assign(partitions, inherited: inherited) }
    }

    /// Partitions being revoked: if the transaction committing their answers fails, they are dropped.
    package func beginRevoking(_ partitions: [KafkaTopicPartition]) {
        shared.withLock { $0.state.beginRevoking(partitions) }
    }

    /// Partitions no longer this member's: their outcomes not yet in a transaction are dropped.
    package func drop(_ partitions: [KafkaTopicPartition]) {
        let resumed = shared.withLock { shared in
            shared.state.drop(partitions).compactMap { shared.takeWaiter($0) }
        }
        let error = KafkaError(code: .partition, message: "the partition was revoked before its answer was committed")
        for waiter in resumed { waiter.resume(returning: .dropped(error)) }
    }

    /// Commits what was appended and stored so far now, and waits until it is (true), or until `timeout`
    /// passes or it is dropped (false when something was left).
    package func flush(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Bool?.self) { group in
            let id = shared.withLock { shared -> UInt64 in
                shared.nextID += 1
                return shared.nextID
            }
            group.addTask {
                await withCheckedContinuation { continuation in
                    // nil: wait for the transaction that carries what is there now; else the answer at once.
                    let answer = self.shared.withLock { shared -> Bool? in
                        guard shared.fatal == nil else { return false }
                        let state = shared.state
                        let unsealed = state.hasPending || state.hasUncommittedOffsets
                        guard unsealed || state.sealed != nil else { return true }
                        shared.flushes[id] = (unsealed ? state.lastSeal + 1 : state.lastSeal, continuation)
                        shared.flushRequested = true
                        return nil
                    }
                    if let answer { continuation.resume(returning: answer) } else { self.wake.signal() }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            if let first { return first }
            shared.withLock { $0.flushes.removeValue(forKey: id) }?.continuation.resume(returning: false)
            return false
        }
    }

    // MARK: Service

    /// Initialises transactions (fencing an older instance with the same `transactional.id`), then commits
    /// transactions until graceful shutdown; what is left then is dropped (its requests are answered again
    /// by the partitions' next owner). Flush first (``flush(timeout:)``) to commit the last answers.
    package func run() async throws {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let thread = Thread { [self] in
            defer { exited.signal() }
            runLoop()
        }
        thread.name = "kafka-transactions"
        thread.start()
        // Graceful shutdown or cancellation: either ends the wait.
        try? await gracefulShutdown()
        stop()
        let bound = configuration.callTimeout * 2 + .seconds(1)
        _ = await KafkaPollThread.call(name: "kafka-transactions-stop") { [exited] in
            exited.wait(timeout: .now() + .milliseconds(Int(clamping: bound.clampedMilliseconds)))
        }
        if let fatal = shared.withLock({ $0.fatal }) { throw fatal }
    }

    /// Stops the loop after the transaction in flight; fails what waits.
    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        wake.signal()
    }
}

extension KafkaTransactions.Shared {
    mutating func takeWaiter(_ id: UInt64) -> CheckedContinuation<KafkaTransactionPublication, Never>? {
        fallbacks[id] = nil
        return waiters.removeValue(forKey: id)
    }
}
