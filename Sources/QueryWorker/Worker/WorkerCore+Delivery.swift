import FeatureQuerySupport
import Kafka
import Logging
import Synchronization
import RequestContract

extension WorkerCore {
    /// Publishes one answer, reporting it queued (it leaves the in-flight gate's count) and delivered (its
    /// message is done and its offset stored) to the machine, and logs its status line once the delivery
    /// report is back.
    ///
    /// Returns once the answer is in the producer's queue: its delivery report is handled where it arrives, on
    /// the producer's poll thread (``reported(_:_:)``), so a run's task ends when its answer is queued and no
    /// task is resumed per report (a resumption was a cross-thread enqueue and often a wake of the loop
    /// thread). Whoever must know that answers are delivered waits on the machine (`.idle`,
    /// `.partitionsDone`), not on this call.
    ///
    /// librdkafka has already retried within its message timeout when a delivery fails, so the cluster is down
    /// or refusing the topic: the outcome is sent again with backoff (1 s doubling to 30 s) by the redelivery
    /// loop (``redeliveryLoop()``) while the machine says so (``StateMachine/deliveryFailed(_:retryable:)``),
    /// its offset held meanwhile, so nothing is lost. A result the cluster refuses as too large becomes a
    /// `failed` outcome (`result_too_large`), which can be sent. The worker gives up (leaving the offset
    /// unstored, so the partition's next owner runs the request again) when the partition is no longer held,
    /// on shutdown, or when the redelivery loop is cancelled.
    ///
    /// Not inlined, and its state on the heap (``OutgoingAnswer``): an async function's locals live in its
    /// task's frame, and a frame larger than a slab (about 1 KB) is a slab of its own, malloc'd and freed for
    /// every run.
    @inline(never)
    func deliver(_ delivery: StateMachine.Delivery) async {
        guard await mayPublish(delivery.position) else { return }
        let outgoing = outcome(of: delivery)
        if let transactions { return await deliverInTransaction(outgoing, transactions) }
        await publish(outgoing)
    }

    /// The answer's message, and where its request was read.
    @inline(never)
    private func outcome(of delivery: StateMachine.Delivery) -> OutgoingAnswer {
        let message = OutcomeMessage(delivery.answer, worker: settings.workerID, finishedAt: WallClock.nowMilliseconds())
        return OutgoingAnswer(position: delivery.position, source: delivery.answer.source, message: message)
    }

    /// One publication of the answer: reported queued to the machine once its messages are in the producer's
    /// queue, then reported delivered or failed (``reported(_:_:)``) from the poll thread.
    @inline(never)
    private func publish(_ outgoing: OutgoingAnswer) async {
        await publisher.publish(outgoing.message, source: outgoing.source) {
            apply(transition { $0.queued(outgoing.position) })
        } reported: { failure in
            self.reported(outgoing, failure)
        }
    }

    /// The answer's delivery report (every part's) is back, on the producer's poll thread: delivered, or failed
    /// and handed to the redelivery loop or given up on. Never blocks.
    private func reported(_ outgoing: OutgoingAnswer, _ failure: KafkaError?) {
        guard let failure else { return delivered(outgoing) }
        metrics.deliveryFailed(failure.code)
        switch afterFailure(failure, of: outgoing) {
        case .sendAgain:
            metrics.outcomeResent()
            redeliver(Redelivery(outgoing: outgoing, failure: failure, pause: .zero))
        case .giveUp:
            return
        case .retryAfterBackoff:
            redeliver(Redelivery(outgoing: outgoing, failure: failure, pause: outgoing.backoff))
        }
    }

    /// Hands a failed publication to the redelivery loop; once the loop has ended (the worker is stopping), the
    /// answer is given up on at once.
    private func redeliver(_ redelivery: Redelivery) {
        if case .terminated = redeliveries.input.yield(redelivery) {
            giveUp(redelivery.outgoing, failure: redelivery.failure)
        }
    }

    /// Sends failed publications again, each after its pause, until the message loop's group is cancelled (at
    /// the end of the drain): a pause cancelled then gives its answer up. A child of the message loop's group.
    func redeliveryLoop() async {
        await withDiscardingTaskGroup { group in
            for await redelivery in redeliveries.stream {
                group.addTask { await self.publishAgain(redelivery) }
            }
        }
    }

    private func publishAgain(_ redelivery: Redelivery) async {
        let outgoing = redelivery.outgoing
        if redelivery.pause > .zero {
            do { try await pause(redelivery.pause) } catch {
                giveUp(outgoing, failure: redelivery.failure)
                return
            }
            outgoing.backoff = min(outgoing.backoff * 2, .seconds(30))
            metrics.outcomeResent()
        }
        await publish(outgoing)
    }

    /// The backoff before sending a failed outcome again, out of line: the sleep's inlined machinery would
    /// otherwise take room in every delivery's frame.
    @inline(never)
    private func pause(_ backoff: Duration) async throws {
        try await Task.sleep(for: backoff)
    }

    /// What ``deliver(_:)`` does after a failed publication.
    private enum FailureStep { case sendAgain, giveUp, retryAfterBackoff }

    /// The delivery report is back: the status line, then the machine learns the message is done.
    @inline(never)
    private func delivered(_ outgoing: OutgoingAnswer) {
        outcomes.delivered(outgoing.message, source: outgoing.source)
        apply(transition { $0.delivered(outgoing.position) })
    }

    /// A publication failed: a result refused as too large becomes a `failed` outcome (`message` is replaced,
    /// to be sent at once); otherwise the machine decides between retrying after `backoff` and giving up.
    @inline(never)
    private func afterFailure(_ failure: KafkaError, of outgoing: OutgoingAnswer) -> FailureStep {
        let (position, source, backoff) = (outgoing.position, outgoing.source, outgoing.backoff)
        var fields = outgoing.message.logIdentifiers
        fields["error.code"] = .string(failure.code.description)
        fields["error"] = .string(failure.message)
        fields["partition"] = .int(source.partition)
        fields["offset"] = .int(source.offset)
        if case .result(let result) = outgoing.message, failure.code == .messageTooLarge {
            logger.error("the cluster refused a result as too large; answering failed", metadata: fields)
            let error = ContractError(.resultTooLarge, "the result was refused by the Kafka cluster as too large: \(failure.message)")
            outgoing.message = .error(publisher.undeliverable(result, error, source: source))
            return .sendAgain
        }
        // On the poll thread no task is cancelled; a sender whose own call completed the batch (a closed
        // producer fails messages as they are queued) may be.
        let retryable = failure.code != .shutdown && !Task.isCancelled
        guard retry(position, retryable: retryable, outgoing.message, source: source, failure: failure) else { return .giveUp }
        fields["retryInMs"] = .int(backoff.clampedMilliseconds)
        logger.error("publishing an outcome failed; sending it again", metadata: fields)
        return .retryAfterBackoff
    }

    /// The pause before sending again was cancelled: the outcome is given up on.
    @inline(never)
    private func giveUp(_ outgoing: OutgoingAnswer, failure: KafkaError) {
        _ = retry(outgoing.position, retryable: false, outgoing.message, source: outgoing.source, failure: failure)
    }

    /// Asks the machine whether to send a failed outcome again; when not, logs the failure line (the request
    /// gets no status line of its own: it is left for redelivery) and acts on the machine's answer.
    @inline(never)
    func retry(
        _ position: MessagePosition, retryable: Bool, _ message: OutcomeMessage, source: MessageSource, failure: KafkaError
    ) -> Bool {
        switch state.withLock({ $0.deliveryFailed(position, retryable: retryable) }) {
        case .retry:
            return true
        case .giveUp(let action):
            outcomes.abandoned(message, source: source, failure: failure)
            apply(action)
            return false
        }
    }
}

/// An answer being published, kept on the heap for ``WorkerCore/deliver(_:)`` (see there why): the message
/// (replaced by a `failed` one when the cluster refuses a result as too large), where its request was read, and
/// the backoff before the next attempt.
///
/// `@unchecked Sendable`: it has one owner at a time, handed on in order: the delivering task, then the poll
/// thread's report of that publication, then (after a failure) the redelivery loop's task, and so on. Each
/// hand-over is ordered by the delivery batch's atomic countdown or the redelivery stream, and no two owners
/// touch it at once.
final class OutgoingAnswer: @unchecked Sendable {
    let position: MessagePosition
    let source: MessageSource
    var message: OutcomeMessage
    /// The pause before sending again after a failure: 1 s, doubling to 30 s.
    var backoff = Duration.seconds(1)

    init(position: MessagePosition, source: MessageSource, message: OutcomeMessage) {
        self.position = position
        self.source = source
        self.message = message
    }
}

extension OutcomeMessage {
    /// The request's ids for a log line about its outcome (delivery retries).
    var logIdentifiers: Logger.Metadata {
        var fields = Logger.Metadata(minimumCapacity: 6)
        switch self {
        case .result(let result):
            fields["requestId"] = .string(result.requestId)
            fields["taskId"] = .string(result.taskId)
        case .error(let error):
            if let requestId = error.requestId { fields["requestId"] = .string(requestId) }
            if let taskId = error.taskId { fields["taskId"] = .string(taskId) }
        }
        return fields
    }
}

/// A failed publication on its way to the redelivery loop: the answer, why it failed, and how long to wait
/// before sending it again (zero: at once, for a result replaced by a `failed` outcome).
struct Redelivery: Sendable {
    let outgoing: OutgoingAnswer
    let failure: KafkaError
    let pause: Duration
}

/// The redelivery loop's queue: the poll thread yields to it, ``WorkerCore/redeliveryLoop()`` reads it.
struct RedeliveryQueue: Sendable {
    let stream: AsyncStream<Redelivery>
    let input: AsyncStream<Redelivery>.Continuation

    init() {
        (stream, input) = AsyncStream.makeStream(of: Redelivery.self)
    }
}
