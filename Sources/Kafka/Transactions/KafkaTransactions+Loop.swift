// CRDKafka first: see EmbeddedKafkaCluster+Faults.swift (other files of a batch lose librdkafka's constants).
internal import CRDKafka
internal import CKafkaShims
import Foundation
import Logging
import FeatureQuerySupport
import Synchronization

extension KafkaTransactions {
    /// The thread's loop: initialise, then seal and run a transaction whenever outcomes or offsets wait.
    func runLoop() {
        guard initialize() else { return finish() }
        var backoff = Duration.milliseconds(100)
        while !stopping.load(ordering: .relaxed) {
            wake.wait()
            if stopping.load(ordering: .relaxed) { break }
            // Gather: everything appended during the interval joins this transaction. A flush goes at once.
            if !shared.withLock({ $0.flushRequested }) { Self.sleep(configuration.interval) }
            drainWakes()
            switch runOnce() {
            case .idle, .committed:
                backoff = .milliseconds(100)
            case .aborted:
                Self.sleep(backoff)
                backoff = min(backoff * 2, .seconds(5))
                wake.signal()
            case .fatal:
                return finish()
            }
            if shared.withLock({ $0.state.hasPending || $0.state.hasUncommittedOffsets }) { wake.signal() }
        }
        finish()
    }

    private enum RunResult { case idle, committed, aborted, fatal }

    /// `rd_kafka_init_transactions`, retried until it succeeds, the publisher stops, or the error is fatal.
    private func initialize() -> Bool {
        var backoff = Duration.milliseconds(200)
        while !stopping.load(ordering: .relaxed) {
            switch producer.handle.initTransactions(timeout: configuration.callTimeout) {
            case .done:
                logger.info("transactions initialised", metadata: ["transactional.id": .string(producer.transactionalID ?? "")])
                return true
            case .retry(let error), .abort(let error):
                logger.warning("initialising transactions failed; trying again", metadata: ["error": .string(error.message)])
                Self.sleep(backoff)
                backoff = min(backoff * 2, .seconds(5))
            case .fatal(let error):
                failFatally(error)
                return false
            }
        }
        return false
    }

    /// Seals what waits and runs one transaction.
    private func runOnce() -> RunResult {
        var result: StateMachine.SealResult
        repeat {
            result = shared.withLock { $0.state.seal() }
            if result == .appendsInProgress { Thread.sleep(forTimeInterval: 0.000_05) }
        } while result == .appendsInProgress
        guard case .transaction(let number) = result else {
            resumeFlushes(upTo: .max)
            return .idle
        }
        let (step, reports) = transact(metadata: producer.handle.groupMetadata(of: consumer.handle))
        // Refused by the cluster as too large: replaced by their fallback before the transaction runs again.
        let refused = reports?.refusedAsTooLarge() ?? [:]
        switch step {
        case .done:
            let (resumed, count) = shared.withLock { shared in
                let ids = shared.state.committedSealed()
                let resumed = ids.compactMap { id in
                    shared.takeWaiter(id).map { ($0, shared.replaced.removeValue(forKey: id)) }
                }
                return (resumed, ids.count)
            }
            for (waiter, fallback) in resumed {
                waiter.resume(returning: fallback.map { .committedFallback($0) } ?? .committed)
            }
            onOutcome(.committed(outcomes: count))
            resumeFlushes(upTo: number)
            return .committed
        case .abort(let error), .retry(let error):
            // No reports: the transaction did not begin, and there is nothing to abort in librdkafka.
            return abort(after: error, refusedAsTooLarge: refused, begun: reports != nil)
        case .fatal(let error):
            failFatally(error)
            return .fatal
        }
    }

    /// Begin, produce, send offsets, commit: the sealed transaction's calls, each retried while it says so;
    /// with the delivery reports of what was produced. `metadata` is the group's as the transaction was sealed.
    /// Partitions of the transaction lost or revoked meanwhile abort it before its offsets or its commit go.
    private func transact(metadata: KafkaGroupMetadata?) -> (KafkaTransactionStep, TransactionDeliveryReports?) {
        let handle = producer.handle
        let step = retrying { handle.beginTransaction() }
        guard case .done = step else { return (step, nil) }
        let (failure, reports) = produceSealed()
        if let failure { return (failure, reports) }
        let (offsets, answered, leftOut) = shared.withLock { shared in
            (shared.state.sealed?.offsets ?? [:], shared.state.sealed?.metadata ?? [:], shared.state.sealed?.leftOut ?? 0)
        }
        if leftOut > 0 {
            logger.warning(
                "answers past a partition's committed offset did not fit in the commit's metadata; a next owner would answer them again",
                metadata: ["answers": "\(leftOut)"])
        }
        let sent = retrying(unlessPartitionsLeft: true) {
            handle.sendOffsetsToTransaction(
                offsets, answered: answered, metadata: metadata, timeout: configuration.callTimeout)
        }
        guard case .done = sent else { return (sent, reports) }
        if let left = partitionsLeft() { return (.abort(left), reports) }
        return (resumed { handle.commitTransaction(timeout: configuration.callTimeout) }, reports)
    }

    /// Calls a resumable transactional call (commit, abort) again while it asks to be retried, until it ends
    /// or the publisher stops: a commit or abort that timed out is still under way in librdkafka, which refuses
    /// every other transactional call meanwhile (`__CONFLICT`), an abort of that commit included.
    private func resumed(_ body: () -> KafkaTransactionStep) -> KafkaTransactionStep {
        var pause = 0.1
        while true {
            let step = body()
            guard case .retry = step, !stopping.load(ordering: .relaxed) else { return step }
            Thread.sleep(forTimeInterval: pause)
            pause = min(pause * 2, 1)
        }
    }

    /// The error that aborts the sealed transaction because some of its partitions left this member since the
    /// seal; nil when none did.
    private func partitionsLeft() -> KafkaError? {
        guard let left = shared.withLock({ $0.state.sealedPartitionsLeft }), !left.isEmpty else { return nil }
        return KafkaError(
            code: .partition, message: "partitions of the transaction left this member while it ran: \(left.sorted { "\($0)" < "\($1)" })")
    }

    /// Calls `body` again while it asks to be retried (pausing between), up to a few times, unless stopping.
    /// `unlessPartitionsLeft`: not even once when partitions of the sealed transaction have left this member
    /// since the seal (its answers are then the next owner's; committing them would answer their requests twice).
    private func retrying(unlessPartitionsLeft: Bool = false, _ body: () -> KafkaTransactionStep) -> KafkaTransactionStep {
        var attempts = 0
        while true {
            if unlessPartitionsLeft, let left = partitionsLeft() { return .abort(left) }
            let step = body()
            guard case .retry(let error) = step else { return step }
            attempts += 1
            if attempts >= 5 || stopping.load(ordering: .relaxed) { return .abort(error) }
            Thread.sleep(forTimeInterval: 0.1 * Double(attempts))
        }
    }

    /// Produces the sealed transaction's messages, each with a delivery-report slot; a message the producer
    /// refuses as too large has its outcome replaced by the fallback (not reported: nothing waits for it).
    /// Returns the failure that must abort the transaction, if any, and the reports.
    private func produceSealed() -> (KafkaTransactionStep?, TransactionDeliveryReports) {
        let entries = shared.withLock { $0.state.sealed?.entries ?? [] }
        let reports = TransactionDeliveryReports(entries)
        for entry in entries {
            var messages = entry.messages
            var index = 0
            var replaced = false
            while index < messages.count {
                let err = producer.produce(messages[index], opaque: replaced ? nil : reports.opaque(entry.id, index))
                if err == RD_KAFKA_RESP_ERR_NO_ERROR {
                    index += 1
                } else if err == RD_KAFKA_RESP_ERR__QUEUE_FULL {
                    Thread.sleep(forTimeInterval: 0.001)
                } else if err == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE, !replaced,
                    let fallback = shared.withLock({ $0.fallbacks[entry.id] }) {
                    // Parts already queued stay in the transaction: the fallback is one error message, which
                    // a reader of the results topic never pairs with them (they lack their last part).
                    let error = KafkaError.rdKafka(err, context: "queueing a result", defaultCode: .messageTooLarge)
                    reports.notQueued(entry.id, from: index, error)
                    messages = fallback()
                    index = 0
                    replaced = true
                    shared.withLock { $0.state.replaceSealedMessages(of: entry.id, with: messages) }
                    tooLarge(entry.id, error)
                } else {
                    let error = KafkaError.rdKafka(err, context: "queueing a message in a transaction", defaultCode: .delivery)
                    reports.notQueued(after: entry.id, index, error)
                    return (.abort(error), reports)
                }
            }
        }
        return (nil, reports)
    }

    /// Remembers that an entry went out as its fallback: its waiter hears so at the commit.
    private func tooLarge(_ id: UInt64, _ error: KafkaError) {
        shared.withLock { $0.replaced[id] = error }
    }

    /// Aborts the failed transaction (`begun`: librdkafka has one open); its outcomes wait for the next one
    /// (but for revoked partitions'), those the cluster refused as too large as their fallback. An abort that
    /// cannot be done (neither done nor retriable) stops the publisher as a fatal error: going on would publish
    /// the outcomes again beside a transaction that may still commit them; a restart under the same
    /// `transactional.id` aborts it for certain.
    private func abort(after error: KafkaError, refusedAsTooLarge refused: [UInt64: KafkaError], begun: Bool) -> RunResult {
        let aborted = begun ? resumed { producer.handle.abortTransaction(timeout: configuration.callTimeout) } : .done
        switch aborted {
        case .done:
            break
        case .retry:
            return .fatal  // Stopping while the abort is under way: what waits is dropped by ``finish()``.
        case .fatal(let fatal):
            failFatally(fatal)
            return .fatal
        case .abort(let failure):
            var fatal = failure
            fatal.message = "the transaction could not be aborted (\(failure.message)) after: \(error.message)"
            fatal.isFatal = true
            fatal.code = .fatal
            failFatally(fatal)
            return .fatal
        }
        let dropped = shared.withLock { shared in
            let dropped = shared.state.abortedSealed().compactMap { shared.takeWaiter($0) }
            for (id, error) in refused where shared.replaced[id] == nil {
                guard let fallback = shared.fallbacks[id] else { continue }
                shared.state.replacePendingMessages(of: id, with: fallback())
                shared.replaced[id] = error
            }
            return dropped
        }
        let reason = KafkaError(code: .partition, message: "the transaction failed while the partition was revoked: \(error.message)")
        for waiter in dropped { waiter.resume(returning: .dropped(reason)) }
        logger.warning("a transaction failed; aborted, its outcomes go in the next one", metadata: [
            "error": .string(error.message), "dropped": .stringConvertible(dropped.count),
        ])
        onOutcome(.aborted(error))
        return .aborted
    }

    /// Records a fatal error (the producer is unusable): later calls fail with it, and the loop ends, failing what
    /// waits (``finish()``).
    private func failFatally(_ error: KafkaError) {
        logger.critical("the transactional producer failed fatally", metadata: ["error": .string(error.message)])
        producer.handle.context.fatalError.withLock { if $0 == nil { $0 = error } }
        shared.withLock { $0.fatal = error }
    }

    /// Ends: whatever still waits is dropped (its requests are answered again by the next owner).
    private func finish() {
        let (waiters, flushes, error) = shared.withLock { shared in
            let ids = shared.state.stop()
            let waiters = ids.compactMap { shared.takeWaiter($0) } + shared.waiters.values
            shared.waiters = [:]
            let flushes = shared.flushes.values.map(\.continuation)
            shared.flushes = [:]
            return (waiters, flushes, shared.fatal ?? KafkaError(code: .shutdown, message: "the transactional publisher stopped"))
        }
        for waiter in waiters { waiter.resume(returning: .dropped(error)) }
        for flush in flushes { flush.resume(returning: false) }
    }

    /// Resumes flushes whose target seal (or an earlier one) has ended committed.
    private func resumeFlushes(upTo number: UInt64) {
        let resumed = shared.withLock { shared in
            let due = shared.flushes.filter { $0.value.target <= number }
            for id in due.keys { shared.flushes[id] = nil }
            shared.flushRequested = !shared.flushes.isEmpty
            return due.values.map(\.continuation)
        }
        for flush in resumed { flush.resume(returning: true) }
    }

    private func drainWakes() {
        while wake.wait(timeout: .now()) == .success {}
    }
}

extension KafkaTransactions {
    /// Blocks the transaction thread for `duration` (to the millisecond).
    static func sleep(_ duration: Duration) {
        Thread.sleep(forTimeInterval: Double(duration.clampedMilliseconds) / 1_000)
    }
}
