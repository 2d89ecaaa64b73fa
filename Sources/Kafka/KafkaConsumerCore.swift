internal import CRDKafka
import Dispatch
import Logging
import Synchronization
import FeatureQuerySupport

/// The part of a consumer that librdkafka's rebalance callback and the message iterator share. It exists
/// before the librdkafka handle does (the callback context must point at it), so it takes the handle's
/// pointer as an argument instead of holding the handle.
final class KafkaConsumerCore: Sendable {
    typealias Waiter = CheckedContinuation<[KafkaConsumerMessage]?, any Error>

    let state: Mutex<StateMachine<Waiter>>
    /// Orders pause and resume calls into librdkafka the same way as the state transitions that caused them.
    private let pauseOrder = Mutex<Void>(())
    let revocations = Atomic<Int>(0)
    /// Signalled by the reader when the read-ahead has drained to half: the poll thread may poll again.
    private let room = DispatchSemaphore(value: 0)
    let stopRequested = Atomic<Bool>(false)
    let started = Atomic<Bool>(false)
    /// Whether an assignment arrived and was not lost since (``KafkaConsumer/hasJoinedGroup``).
    let joinedGroup = Atomic<Bool>(false)
    /// What this member stored, for resuming partitions it lost and gets back (see ``StoredOffsetMemory``).
    let storedOffsets = StoredOffsetMemory()
    /// Requests previous owners answered past their commits (see ``InheritedAnswers``).
    let inheritedAnswers = InheritedAnswers()
    /// Whether assignments read the answers previous owners named in their commits
    /// (``KafkaConsumerConfiguration/inheritsAnswers``).
    let inheritsAnswers: Bool
    let logger: Logger
    let revokeTimeout: Duration
    let rebalanceHandler: @Sendable (KafkaRebalanceEvent) async -> Void

    init(
        configuration: KafkaConsumerConfiguration,
        logger: Logger,
        rebalanceHandler: @escaping @Sendable (KafkaRebalanceEvent) async -> Void
    ) {
        self.state = Mutex(StateMachine(capacity: configuration.bufferCapacity))
        self.logger = logger
        self.revokeTimeout = configuration.revokeTimeout
        self.inheritsAnswers = configuration.inheritsAnswers
        self.rebalanceHandler = rebalanceHandler
    }

    /// Blocks the poll thread for up to 100 ms, or until the reader has taken half of the read-ahead.
    func waitForRoomBriefly() {
        _ = room.wait(timeout: .now() + .milliseconds(100))
    }

    func wakePoller() { room.signal() }

    /// Runs a transition that may change which partitions are paused, then makes librdkafka agree.
    func withPauseChanges(
        _ rk: OpaquePointer,
        _ body: @Sendable (inout StateMachine<Waiter>) -> StateMachine<Waiter>.PauseChanges
    ) {
        pauseOrder.withLock { _ in
            let changes = state.withLock { body(&$0) }
            apply(changes, rk)
        }
    }

    private func apply(_ changes: StateMachine<Waiter>.PauseChanges, _ rk: OpaquePointer) {
        if !changes.pause.isEmpty {
            logger.debug("pausing partitions", metadata: ["partitions": "\(changes.pause)"])
            let err = RDKafkaTopicPartitionList.withList(changes.pause) { rd_kafka_pause_partitions(rk, $0) }
            if err != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.warning("pausing partitions failed", metadata: ["error": "\(KafkaError.rdKafka(err, context: "pause"))"])
            }
        }
        if !changes.resume.isEmpty {
            logger.debug("resuming partitions", metadata: ["partitions": "\(changes.resume)"])
            let err = RDKafkaTopicPartitionList.withList(changes.resume) { rd_kafka_resume_partitions(rk, $0) }
            if err != RD_KAFKA_RESP_ERR_NO_ERROR {
                logger.warning("resuming partitions failed", metadata: ["error": "\(KafkaError.rdKafka(err, context: "resume"))"])
            }
        }
    }

    // MARK: Reader

    enum Take { case messages([KafkaConsumerMessage]), finished(KafkaError?), wait }

    /// Takes the next batch for the reader, or registers `waiter` to be resumed with one.
    func take(orSuspend waiter: Waiter? = nil) -> Take {
        let (take, wake) = state.withLock { machine -> (Take, Bool) in
            switch machine.next() {
            case .deliver(let messages, let wake): return (.messages(messages), wake)
            case .finish(let error): return (.finished(error), false)
            case .suspend:
                guard let waiter else { return (.wait, false) }
                if Task.isCancelled { return (.finished(nil), false) }
                return machine.suspend(waiter) ? (.wait, false) : (.finished(nil), false)
            }
        }
        if wake { wakePoller() }
        return take
    }

    // MARK: Rebalance (poll thread, inside rd_kafka_consumer_poll)

    func rebalance(_ rk: OpaquePointer, _ err: rd_kafka_resp_err_t, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        let partitions = RDKafkaTopicPartitionList.partitions(list)
        let cooperative = rd_kafka_rebalance_protocol(rk).map { String(cString: $0) } == "COOPERATIVE"
        switch err {
        case RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS:
            // Debug: the rebalance handler's owner logs the event in its own words (the worker does, at info).
            logger.debug("partitions assigned", metadata: ["partitions": "\(partitions)"])
            joinedGroup.store(true, ordering: .relaxed)
            RDKafkaCallbackContext.from(handle: rk)?.heardFromCluster()
            let resumed = resumeAfterLoss(rk, list)
            if inheritsAnswers { inheritAnswers(rk, list) }
            if cooperative {
                if let error = rd_kafka_incremental_assign(rk, list) { logAndDestroy(error, "incremental assign") }
            } else {
                let result = rd_kafka_assign(rk, list)
                if result != RD_KAFKA_RESP_ERR_NO_ERROR {
                    logger.error("assign failed", metadata: ["error": "\(KafkaError.rdKafka(result, context: "assign"))"])
                }
            }
            storeResumed(rk, resumed)
            // librdkafka keeps a partition's pause flag across revocation and reassignment, while the state
            // machine forgets its marks on revocation: a resume issued in between would never reach librdkafka.
            // So every newly assigned partition gets its flag set explicitly, paused or not.
            withPauseChanges(rk) { machine in
                let paused = machine.assigned(partitions)
                return .init(pause: paused, resume: partitions.filter { !paused.contains($0) })
            }
            runHandler(.assigned(partitions), timeout: revokeTimeout)
        case RD_KAFKA_RESP_ERR__REVOKE_PARTITIONS:
            let lost = rd_kafka_assignment_lost(rk) != 0
            logger.debug("partitions revoked", metadata: ["partitions": "\(partitions)", "lost": .stringConvertible(lost)])
            if lost {
                joinedGroup.store(false, ordering: .relaxed)
            } else {
                storedOffsets.forget(partitions)
            }
            _ = state.withLock { $0.revoked(partitions) }
            inheritedAnswers.forget(partitions)
            revocations.add(1, ordering: .sequentiallyConsistent)
            let deadline = ContinuousClock.now.advanced(by: revokeTimeout)
            runHandler(lost ? .lost(partitions) : .revoked(partitions, deadline: deadline), timeout: revokeTimeout)
            if cooperative {
                if let error = rd_kafka_incremental_unassign(rk, list) { logAndDestroy(error, "incremental unassign") }
            } else {
                _ = rd_kafka_assign(rk, nil)
            }
        default:
            logger.error("rebalance error", metadata: ["error": "\(KafkaError.rdKafka(err, context: "rebalance"))"])
            joinedGroup.store(false, ordering: .relaxed)
            _ = state.withLock { $0.revoked(partitions) }
            inheritedAnswers.forget(partitions)
            revocations.add(1, ordering: .sequentiallyConsistent)
            _ = rd_kafka_assign(rk, nil)
        }
    }

    /// Runs the caller's async handler and blocks the poll thread until it returns or the timeout passes.
    private func runHandler(_ event: KafkaRebalanceEvent, timeout: Duration) {
        let done = DispatchSemaphore(value: 0)
        let handler = rebalanceHandler
        let task = Task {
            await handler(event)
            done.signal()
        }
        if done.wait(timeout: .after(timeout)) == .timedOut {
            logger.warning("rebalance handler did not finish in time; going on", metadata: ["timeoutMs": .stringConvertible(timeout.clampedMilliseconds)])
            task.cancel()
        }
    }

    private func logAndDestroy(_ error: OpaquePointer, _ what: String) {
        let text = rd_kafka_error_string(error).map { String(cString: $0) } ?? "unknown"
        logger.error("\(what) failed", metadata: ["error": "\(text)"])
        rd_kafka_error_destroy(error)
    }
}
