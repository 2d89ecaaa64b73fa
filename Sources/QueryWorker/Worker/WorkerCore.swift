import Kafka
import Logging
import ServiceLifecycle
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The worker's decisions and side effects for each message, run and answer.
///
/// State lives in one ``WorkerState`` under a lock; the state machines in it decide (which run starts, which
/// is superseded, which offsets may be stored, when to pause) and the core acts once the lock is released:
/// cancels tasks, publishes outcomes, stores offsets, pauses or resumes the consumer.
final class WorkerCore: Sendable {
    let settings: WorkerSettings
    let decoder: RequestDecoder
    let executor: RequestExecutor
    let publisher: OutcomePublisher
    let events: WorkerEvents
    let logger: Logger
    let state: Mutex<WorkerState>
    /// Set once after the consumer is made (the consumer needs the core's rebalance handler first).
    let consumer = Mutex<KafkaConsumer?>(nil)
    /// Orders offset stores in librdkafka as their computation under ``state`` (see ``markDone(_:)``).
    private let storeOrder = Mutex<Void>(())

    init(settings: WorkerSettings, decoder: RequestDecoder, executor: RequestExecutor, producer: KafkaProducer, logger: Logger) {
        self.settings = settings
        self.decoder = decoder
        self.executor = executor
        self.publisher = OutcomePublisher(producer: producer, settings: settings, logger: logger)
        self.events = WorkerEvents(logger: logger)
        self.logger = logger
        self.state = Mutex(WorkerState(gate: InFlightGate(maxInFlight: settings.limits.maxInFlight, lowMark: settings.limits.lowMark)))
    }

    /// Wall-clock milliseconds since the epoch: the unit of deadlines and outcome timestamps.
    static func nowMs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000 + Int64(spec.tv_nsec) / 1_000_000
    }

    // MARK: Messages

    /// Handles one request-topic message. Runs and publications become children of `group`.
    func handle(_ message: KafkaConsumerMessage, in group: inout DiscardingTaskGroup) {
        let position = MessagePosition(message.topicPartition, offset: message.offset)
        let (accepted, gateAction) = state.withLock { state -> (Bool, InFlightGate.Action) in
            guard state.offsets.received(position) else { return (false, .none) }
            return (true, state.gate.update(inFlight: state.gateLoad))
        }
        guard accepted else { return }
        applyGate(gateAction)
        let now = Self.nowMs()
        let source = MessageSource(message)
        switch decoder.decode(message, receivedAt: now) {
        case .rejected(let rejection):
            events.rejected(rejection, source: source)
            let answer = ErrorMessage.rejected(rejection, source: source, worker: settings.workerID, receivedAt: now, finishedAt: Self.nowMs())
            group.addTask { await self.publish(.error(answer), status: .rejected, source: source, positions: [position]) }
        case .cancel(let taskId):
            let cancellation = state.withLock { $0.registry.cancel(taskId: taskId) }
            logger.info("cancel", metadata: ["taskId": "\(taskId)", "runs": "\(cancellation.runs.count)"])
            apply(cancellation, in: &group)
            markDone([position])
        case .query(var request):
            // A request without a deadline gets the operator's `requestTimeout` (0: none): nothing runs forever.
            if request.deadline == nil, settings.timeouts.request > .zero {
                request.deadline = request.receivedAt + settings.timeouts.request.wholeMilliseconds
            }
            let pending = PendingRequest(request: request, source: source, position: position)
            events.received(pending)
            if let refusal = executor.admit(request) {
                let rejection = RejectedRequest(
                    code: refusal.code, message: refusal.message, requestId: request.requestId, taskId: request.taskId)
                events.rejected(rejection, source: source)
                let answer = ErrorMessage.rejected(rejection, source: source, worker: settings.workerID, receivedAt: now, finishedAt: Self.nowMs())
                group.addTask { await self.publish(.error(answer), status: .rejected, source: source, positions: [position]) }
                return
            }
            receive(pending, now: now, in: &group)
        }
    }

    private func receive(_ pending: PendingRequest, now: Int64, in group: inout DiscardingTaskGroup) {
        let request = pending.request
        let entry = TaskRegistry<WorkFingerprint>.Request(
            requestId: request.requestId, taskId: request.taskId, fingerprint: WorkFingerprint(request),
            position: pending.position, deadlineMs: request.deadline)
        let action = state.withLock { state -> TaskRegistry<WorkFingerprint>.ReceiveAction in
            let action = state.registry.receive(entry, nowMs: now)
            switch action {
            case .start, .supersede, .share, .answerWithoutRun: state.pending[request.requestId] = pending
            case .duplicate: break
            }
            return action
        }
        switch action {
        case .start(let run):
            start(run, pending, in: &group)
        case .supersede(let cancellation, let run):
            apply(cancellation, in: &group)
            start(run, pending, in: &group)
        case .share(let run):
            events.shared(pending, run: run)
        case .duplicate:
            markDone([pending.position])
        case .answerWithoutRun(let answer, let cancelling):
            apply(cancelling, in: &group)
            answerAll([answer], in: &group)
        }
    }

    // MARK: Runs

    private func start(_ run: RunID, _ pending: PendingRequest, in group: inout DiscardingTaskGroup) {
        events.started(pending, run: run)
        group.addTask {
            let task = Task { await self.execute(run, pending.request) }
            let cancelledAlready = self.state.withLock { state -> Bool in
                if state.cancelledEarly.remove(run) != nil { return true }
                state.runTasks[run] = task
                return false
            }
            if cancelledAlready { task.cancel() }
            await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
            _ = self.state.withLock { $0.runTasks.removeValue(forKey: run) }
        }
    }

    private func execute(_ run: RunID, _ request: QueryRequest) async {
        // Deadlines while running are the deadline loop's (see deadlineLoop()), not a timer per request.
        let outcome = await executor.execute(request)
        let (answers, cancellation): ([TaskAnswer], TaskCancellation) = state.withLock { state in
            switch outcome {
            case .result(let result): (state.registry.finished(run, status: result.status == .partial ? .partial : .succeeded), .none)
            case .failed: (state.registry.finished(run, status: .failed), .none)
            case .expired: ([], state.registry.expire(run))
            case .cancelled: (state.registry.finished(run, status: .cancelled), .none)
            }
        }
        var outcomes: [(TaskAnswer, ExecutionOutcome)] = answers.map { ($0, outcome) }
        outcomes += cancellation.answers.map { ($0, .expired) }
        if outcomes.count == 1, let (answer, outcome) = outcomes.first {
            // The common case, one request per run: answered in this task, no child task.
            await self.answer(answer, outcome: outcome)
            return
        }
        await withDiscardingTaskGroup { group in
            for (answer, outcome) in outcomes {
                group.addTask { await self.answer(answer, outcome: outcome) }
            }
        }
    }

    // MARK: Answers

    /// Cancels the runs a state machine gave up and answers their requests.
    func apply(_ cancellation: TaskCancellation, in group: inout DiscardingTaskGroup) {
        cancelRuns(cancellation.runs)
        answerAll(cancellation.answers, in: &group)
    }

    func cancelRuns(_ runs: [RunID]) {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            runs.compactMap { run in
                if let task = state.runTasks[run] { return task }
                state.cancelledEarly.insert(run)
                return nil
            }
        }
        for task in tasks { task.cancel() }
    }

    /// Answers the requests a state machine gave up (superseded, cancelled, expired) and returns once every
    /// answer is published: for the rebalance and deadline paths, which have no message-loop group.
    func answerAll(_ answers: [TaskAnswer]) async {
        await withDiscardingTaskGroup { group in answerAll(answers, in: &group) }
    }

    func answerAll(_ answers: [TaskAnswer], in group: inout DiscardingTaskGroup) {
        for answer in answers {
            group.addTask { await self.answer(answer, outcome: nil) }
        }
    }

    /// Publishes one request's terminal outcome: `outcome` is the run's, or nil for answers the registry
    /// decided (superseded, cancelled, expired).
    func answer(_ answer: TaskAnswer, outcome: ExecutionOutcome?) async {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: answer.request.requestId) }) else { return }
        let now = Self.nowMs()
        let worker = settings.workerID
        let request = pending.request
        let message: OutcomeMessage
        var counts: [Int] = []
        var errorCode: String?
        switch (answer.status, outcome) {
        case (.superseded, _):
            message = .error(.superseded(request, by: answer.supersededBy ?? "", source: pending.source, worker: worker, finishedAt: now))
            errorCode = "superseded"
        case (.expired, _):
            message = .error(.expired(request, source: pending.source, worker: worker, finishedAt: now))
            errorCode = "deadline_exceeded"
        case (.cancelled, _):
            let code: ContractError.Code = switch answer.cancelReason {
            case .shutdown?: .shutdown
            case .partitionRevoked?: .partitionRevoked
            default: .cancelRequested
            }
            message = .error(.cancelled(request, code: code, source: pending.source, worker: worker, finishedAt: now))
            errorCode = code.rawValue
        case (_, .result(let result)?):
            let addressed = result.addressed(to: request)
            counts = addressed.layers.map(\.reportedCount)
            message = .result(addressed)
        case (_, .failed(let error)?):
            message = .error(ErrorMessage(
                requestId: request.requestId, taskId: request.taskId, status: .failed, error: error,
                source: pending.source, worker: worker, receivedAt: request.receivedAt, finishedAt: now))
            errorCode = error.code.rawValue
        default:
            message = .error(.cancelled(request, code: .shutdown, source: pending.source, worker: worker, finishedAt: now))
            errorCode = "shutdown"
        }
        events.answered(pending, status: answer.status, errorCode: errorCode, counts: counts,
                        supersededBy: answer.supersededBy, nowMs: now)
        await publish(message, status: answer.status, source: pending.source, positions: [pending.position])
    }

    /// Sends an outcome and, once its delivery reports are back, marks the request's message done.
    ///
    /// The request leaves the in-flight gate's count as soon as its outcome is in the producer's queue; its
    /// offset waits for the delivery report. A delivery that fails is sent again (see ``deliver(_:source:positions:)``).
    func publish(_ message: OutcomeMessage, status: TerminalStatus, source: MessageSource, positions: [MessagePosition]) async {
        state.withLock { $0.publishing += 1 }
        let delivered = await deliver(message, source: source, positions: positions)
        state.withLock { state in
            state.publishing -= 1
            state.answered[status, default: 0] += 1
        }
        if delivered { markDone(positions) }
    }

    /// Sends `message` until it is delivered; false when the worker gave up on it.
    ///
    /// librdkafka has already retried within its message timeout when a delivery fails, so the cluster is down
    /// or refusing the topic: the outcome is sent again with backoff (1 s doubling to 30 s), and the message
    /// stays undone meanwhile, holding its partition's commit, so nothing is lost. A result the cluster refuses
    /// as too large becomes a `failed` outcome (`result_too_large`), which can be sent. The worker gives up
    /// (leaving the offset unstored, so the partition's next owner runs the request again) when the partition
    /// is no longer assigned, on shutdown, or when the publishing task is cancelled.
    func deliver(_ message: OutcomeMessage, source: MessageSource, positions: [MessagePosition]) async -> Bool {
        var message = message
        var backoff = Duration.seconds(1)
        while true {
            let failure = await publisher.publish(message, source: source) {
                let gateAction = state.withLock { state in
                    for position in positions { state.offsets.handedOff(position) }
                    return state.gate.update(inFlight: state.gateLoad)
                }
                applyGate(gateAction)
            }
            guard let failure else { return true }
            var fields: Logger.Metadata = [
                "error.code": "\(failure.code)", "error": "\(failure.message)", "partition": "\(source.partition)",
                "offset": "\(source.offset)",
            ]
            if case .result(let result) = message, failure.code == .messageTooLarge {
                logger.error("the cluster refused a result as too large; answering failed", metadata: fields)
                let error = ContractError(.resultTooLarge, "the result was refused by the Kafka cluster as too large: \(failure.message)")
                message = .error(publisher.undeliverable(result, error, source: source))
                continue
            }
            let owned = state.withLock { state in
                !state.loopStopping && positions.allSatisfy { state.offsets.isAssigned($0.partition) }
            }
            guard owned, failure.code != .shutdown, !Task.isCancelled else {
                logger.error("publishing an outcome failed; its request is left for redelivery", metadata: fields)
                return false
            }
            fields["retryIn"] = "\(backoff)"
            logger.error("publishing an outcome failed; sending it again", metadata: fields)
            do { try await Task.sleep(for: backoff) } catch { return false }
            backoff = min(backoff * 2, .seconds(30))
        }
    }

    // MARK: Offsets and flow control

    /// Marks messages done and stores the offsets that became contiguous.
    func markDone(_ positions: [MessagePosition]) {
        // One outer lock orders the offsets' computation and their store: librdkafka keeps the offset stored
        // last, so two answers finishing together must not store out of order (the commit would go back).
        let gateAction = storeOrder.withLock { _ -> InFlightGate.Action in
            let (offsets, gateAction) = state.withLock { state -> ([KafkaTopicPartition: Int64], InFlightGate.Action) in
                var offsets: [KafkaTopicPartition: Int64] = [:]
                for position in positions {
                    if let next = state.offsets.done(position) { offsets[position.partition] = next }
                }
                return (offsets, state.gate.update(inFlight: state.gateLoad))
            }
            if !offsets.isEmpty, let consumer = consumer.withLock({ $0 }) {
                do { try consumer.storeOffsets(offsets) } catch {
                    logger.warning("storing offsets failed", metadata: ["error": "\(error)"])
                }
            }
            return gateAction
        }
        applyGate(gateAction)
    }
}
