import RequestContract
internal import Kafka

extension WorkerCore {
    /// The life of every request-topic message the worker reads, from receipt to stored offset, in one value.
    ///
    /// A message is *received* (its position recorded, so its offset is held), *admitted* or refused on arrival
    /// (decoding and the host policy run before ``receive(_:at:nowMs:)``), then, for a query, *running* on a run
    /// of its own or one it shares; it is *answered* when its outcome is decided (by the run, or by coordination:
    /// superseded, cancelled, expired), *queued* when the outcome is in the producer's queue, and *delivered* when
    /// the delivery report is back: only then is it done and its offset may become *committable*.
    ///
    /// Like async-http-client's `RequestBag.StateMachine`, each event is one `mutating func` that returns an
    /// ``Action``; ``WorkerCore`` keeps the machine under a lock and does the action (cancel tasks, start a run,
    /// publish answers, store offsets, pause or resume the consumer, wake waiters) after releasing it. The machine
    /// composes the pieces that decide one concern each: ``TaskRegistry`` (which run serves which request:
    /// supersession, sharing, deadlines), ``AssignmentOffsetTracker`` (which offsets may be stored) and
    /// ``InFlightGate`` (flow control); every event keeps them in step here, so the worker holds no second
    /// record of a request.
    struct StateMachine: Sendable {
        /// Where one message is in its life. A message with no state is done, was never received, belongs to a
        /// partition no longer held, or its outcome was given up on (its offset then stays held).
        enum MessageState: Sendable {
            /// A query attached to a run (its own, or one it shares): waiting for the run's outcome, or for
            /// coordination to answer it first.
            case running(PendingRequest, RunID)
            /// Its answer is decided and on its way to the producer: the gate still counts it.
            case answering
            /// Its answer is in the producer's queue (or being sent again): the gate no longer counts it; its
            /// offset waits for the delivery report.
            case queued
        }

        /// A run's task, as far as stopping it goes.
        enum RunTask: Sendable {
            /// The run was decided; its task is being made.
            case starting
            /// It runs; cancelling it aborts the run's transfers.
            case running(RunHandle)
            /// Cancelled before its task was handed over: the task is cancelled as soon as it is.
            case cancelledBeforeStart
        }

        /// The message loop, as flow control sees it.
        enum Intake: Sendable {
            /// Taking messages.
            case open
            /// The gate is closed: the loop waits (`loop`, once it does), and the partitions are paused in
            /// librdkafka too once the gate stayed closed (`partitionsPaused`).
            case held(loop: CheckedContinuation<Void, Never>?, partitionsPaused: Bool)
            /// The loop is ending (graceful shutdown or cancellation): it never waits again, and outcomes that
            /// cannot be delivered are left to the partition's next owner.
            case stopping(partitionsPaused: Bool)
        }

        /// The partition-pause watch (`WorkerCore.partitionPauseLoop()`), as the machine sees it.
        enum HoldWatch: Sendable {
            /// Not waiting: sleeping through a hold, or not started yet.
            case idle
            /// Waiting for the loop to be held, resumed with that hold's number.
            case waiting(CheckedContinuation<UInt64?, Never>)
            /// The watch ended: it never waits again.
            case ended
        }

        /// What the partition-pause watch does when it asks for the next hold.
        enum HoldWatchStart: Sendable {
            /// The loop is held now: watch hold number `n`.
            case watch(UInt64)
            /// Not held now: the continuation is kept and resumed at the next hold.
            case wait
            /// The watch has ended.
            case end
        }

        /// What the drain and rebalance paths wait for (see ``wait(_:for:_:)``).
        enum Condition: Hashable, Sendable {
            /// No run is live.
            case noRuns
            /// No run is live and every message's outcome is delivered (or given up on).
            case idle
            /// Every message of these partitions is done.
            case partitionsDone(Set<KafkaTopicPartition>)
            /// The group coordinator is not known to refuse commits (see ``commitsRefused``).
            case commitsAccepted
        }

        /// A waiter of ``Condition``: registered first (so that a timeout racing the registration is not lost),
        /// then waiting with its continuation.
        enum Waiter: Sendable {
            case registered
            case waiting(Condition, CheckedContinuation<Void, Never>)
        }

        private(set) var registry = TaskRegistry<WorkFingerprint>()
        private(set) var offsets = AssignmentOffsetTracker()
        private(set) var gate: InFlightGate
        /// Every message received and not done, by position.
        private(set) var messages: [MessagePosition: MessageState] = [:]
        /// The task of every run started and not yet returned (or cancelled).
        private var runs: [RunID: RunTask] = [:]
        private(set) var intake = Intake.open
        /// How many times the gate has closed. The partition-pause watch pauses a hold only if the hold it saw
        /// start is still on after the delay, not one that ended and another began since.
        private(set) var holdCount: UInt64 = 0
        private var holdWatch = HoldWatch.idle
        private var waiters: [Int: Waiter] = [:]
        private var lastWaiter = 0
        /// Outcomes delivered or given up on since the start, for the summary log.
        private(set) var answeredCount = 0
        /// The group coordinator refused the last commit because the group is rebalancing: answers published
        /// now could not be committed, so publishing waits (see `WorkerCore+StateMachine+Commits.swift`). The
        /// worker's only record of it: the delivery path reads it here.
        var commitsRefused = false

        init(gate: InFlightGate) {
            self.gate = gate
        }

        /// Messages received and not done, across partitions: what drains and revocations wait for.
        var inFlight: Int { offsets.inFlight }

        /// What the metrics record after every event. Read as three numbers, not by handing the metrics the
        /// machine: a copy of the machine (made for every event) retained each of its members.
        struct Gauges {
            var requestsInFlight: Int
            var runsInFlight: Int
            var assignedPartitions: Int
        }

        var gauges: Gauges {
            Gauges(requestsInFlight: inFlight, runsInFlight: registry.runCount, assignedPartitions: offsets.partitions.count)
        }

        /// The earliest deadline of a request on a run: when ``expireDue(nowMs:)`` is due next.
        var nextDeadlineMs: Int64? { registry.nextDeadlineMs }

        /// Whether `condition` holds now (checked again at the end of every event for the waiters).
        func holds(_ condition: Condition) -> Bool {
            switch condition {
            case .noRuns: registry.runCount == 0
            case .idle: registry.runCount == 0 && messages.isEmpty
            case .partitionsDone(let partitions): partitions.allSatisfy { (offsets[$0]?.inFlight ?? 0) == 0 }
            case .commitsAccepted: !commitsRefused
            }
        }
    }
}

// Every event is one mutating function returning what the worker must do; each ends in ``settle(_:)``, the
// one place where the gate and the waiters hear of the change.
extension WorkerCore.StateMachine {
    // MARK: Messages

    /// A message was read (in partition order) and classified. A query starts a run, shares one, supersedes
    /// its task's run, is a duplicate, or is answered at once; see ``TaskRegistry`` for which and why.
    mutating func receive(_ arrival: Arrival, at position: MessagePosition, nowMs: Int64) -> (Receipt, Action) {
        guard offsets.received(position) else { return (.ignored, Action()) }
        var action = Action()
        let receipt: Receipt
        switch arrival {
        case .rejected(let rejection, let source, let receivedAt):
            messages[position] = .answering
            action.publish.append(Delivery(position: position, answer: .rejected(rejection, source, receivedAt: receivedAt)))
            receipt = .rejected
        case .tooOld(let request, let source, let age):
            let pending = PendingRequest(request: request, source: source, position: position)
            messages[position] = .answering
            action.publish.append(Delivery(position: position, answer: .interrupted(pending, .tooOld(age))))
            receipt = .answeredWithoutRun
        case .cancel(let taskId):
            let cancellation = registry.cancel(taskId: taskId)
            interrupt(cancellation, into: &action)
            done(position, into: &action)
            receipt = .cancel(runs: cancellation.runs.count)
        case .query(let request, let source):
            let pending = PendingRequest(request: request, source: source, position: position)
            let entry = TaskRegistry<WorkFingerprint>.Request(
                requestId: request.requestId, taskId: request.taskId, fingerprint: WorkFingerprint(request),
                position: position, deadlineMs: request.deadline)
            switch registry.receive(entry, nowMs: nowMs) {
            case .start(let run):
                start(run, pending, into: &action)
                receipt = .started(run)
            case .supersede(let superseded, let run):
                interrupt(superseded, into: &action)
                start(run, pending, into: &action)
                receipt = .started(run)
            case .share(let run):
                messages[position] = .running(pending, run)
                receipt = .shared(run)
            case .duplicate:
                done(position, into: &action)
                receipt = .duplicate
            case .answerWithoutRun(let answer, let cancelling):
                interrupt(cancelling, into: &action)
                messages[position] = .answering
                action.publish.append(Delivery(position: position, answer: .interrupted(pending, answer.reason)))
                receipt = .answeredWithoutRun
            }
        }
        settle(&action)
        return (receipt, action)
    }

    // MARK: Runs

    /// The run's task was made. True when it must be cancelled at once (the run was cancelled meanwhile).
    mutating func runTaskCreated(_ run: RunID, _ task: RunHandle) -> Bool {
        switch runs[run] {
        case .starting?:
            runs[run] = .running(task)
            return false
        case .cancelledBeforeStart?, .running?, nil:
            runs[run] = nil
            return true
        }
    }

    /// The run's task returned `outcome`. Requests still on the run get it (each addressed to itself); a run
    /// that ended `cancelled` with requests still on it was cancelled with the worker's own task (every other
    /// cancellation takes the requests off first), so they are answered `cancelled` (`shutdown`).
    mutating func runFinished(_ run: RunID, _ outcome: ExecutionOutcome) -> Action {
        runs[run] = nil
        var action = Action()
        switch outcome {
        case .result(let result):
            for request in registry.finished(run) { answer(request, into: &action) { .result($0, result.addressed(to: $0.request)) } }
        case .failed(let error):
            for request in registry.finished(run) { answer(request, into: &action) { .failed($0, error) } }
        case .expired:
            interrupt(registry.expire(run), into: &action)
        case .cancelled:
            for request in registry.finished(run) { answer(request, into: &action) { .interrupted($0, .cancelled(.shutdown)) } }
        }
        settle(&action)
        return action
    }

    /// Answers `expired` every request on a run whose deadline is at or before `nowMs`; runs left without a
    /// request are cancelled.
    mutating func expireDue(nowMs: Int64) -> Action {
        var action = Action()
        interrupt(registry.expireDue(nowMs: nowMs), into: &action)
        settle(&action)
        return action
    }

    // MARK: Delivery

    /// The answer for `position` is in the producer's queue: it leaves the gate's count.
    mutating func queued(_ position: MessagePosition) -> Action {
        if let index = messages.index(forKey: position), case .answering = messages.values[index] {
            messages.values[index] = .queued
        }
        offsets.handedOff(position)
        var action = Action()
        settle(&action)
        return action
    }

    /// The answer's delivery report is back: the message is done, and its offset stored when it completes a
    /// contiguous prefix.
    mutating func delivered(_ position: MessagePosition) -> Action {
        var action = Action()
        messages[position] = nil
        answeredCount += 1
        done(position, into: &action)
        settle(&action)
        return action
    }

    /// The producer could not deliver the answer (librdkafka has retried within its message timeout). While
    /// the failure is `retryable` (the producer is not shutting down, the publishing task not cancelled), the
    /// partition is held and the loop is not stopping, it is sent again; else it is left, its offset unstored,
    /// to the partition's next owner, which runs the request again.
    mutating func deliveryFailed(_ position: MessagePosition, retryable: Bool) -> DeliveryFailureAction {
        let stopping = if case .stopping = intake { true } else { false }
        if retryable, !stopping, offsets.isAssigned(position.partition) { return .retry }
        var action = Action()
        messages[position] = nil
        answeredCount += 1
        settle(&action)
        return .giveUp(action)
    }

    // MARK: Rebalance and shutdown

    mutating func assign(_ partitions: [KafkaTopicPartition]) {
        offsets.assign(partitions)
    }

    /// Revocation, once its window for runs passed: requests of the partitions still on runs are answered
    /// `cancelled` (`partition_revoked`); runs left without requests are cancelled.
    mutating func revoke(_ partitions: Set<KafkaTopicPartition>) -> (answers: Int, Action) {
        var action = Action()
        let cancellation = registry.cancel(partitions: partitions)
        interrupt(cancellation, into: &action)
        settle(&action)
        return (cancellation.answers.count, action)
    }

    /// The partitions are gone (after ``revoke(_:)``'s answers were delivered, or lost): their offsets and
    /// messages are forgotten. `lost` partitions belong to another member already, so
    /// their requests get no answers here: their runs stop and the new owner answers.
    mutating func forget(_ partitions: [KafkaTopicPartition], lost: Bool) -> Action {
        var action = Action()
        if lost {
            let cancellation = registry.cancel(partitions: Set(partitions))
            cancelRuns(cancellation.runs, into: &action)
        }
        offsets.revoke(partitions)
        let gone = Set(partitions)
        messages = messages.filter { !gone.contains($0.key.partition) }
        settle(&action)
        return action
    }

    /// The coordinator confirmed these commits: they are recorded (see
    /// ``PartitionOffsetTracker/answeredPastCommit``), and waiting answers go out
    /// (``commitsAccepted()``).
    mutating func committed(_ committed: [KafkaTopicPartition: Int64]) -> Action {
        offsets.committed(committed)
        return commitsAccepted()
    }

    /// Graceful shutdown, once runs had their time: every request on a run is answered `cancelled`
    /// (`shutdown`) and its run cancelled; requests read afterwards are answered the same at once.
    mutating func shutDown() -> Action {
        var action = Action()
        interrupt(registry.cancelForShutdown(), into: &action)
        settle(&action)
        return action
    }

    // MARK: Flow control

    /// The message loop waits for the gate; `waits` is false when it need not (the gate is open, or the loop is
    /// ending). `watch` is the partition-pause watch when it waited for this hold: resume its continuation
    /// with the hold's number.
    mutating func holdLoop(
        _ continuation: CheckedContinuation<Void, Never>
    ) -> (waits: Bool, watch: (continuation: CheckedContinuation<UInt64?, Never>, hold: UInt64)?) {
        guard case .held(nil, let paused) = intake else { return (false, nil) }
        intake = .held(loop: continuation, partitionsPaused: paused)
        guard !paused, case .waiting(let watch) = holdWatch else { return (true, nil) }
        holdWatch = .idle
        return (true, (watch, holdCount))
    }

    /// The partition-pause watch asks for the next hold of the loop (see ``HoldWatchStart``).
    mutating func watchHolds(_ continuation: CheckedContinuation<UInt64?, Never>) -> HoldWatchStart {
        if case .ended = holdWatch { return .end }
        if case .held(.some, false) = intake { return .watch(holdCount) }
        holdWatch = .waiting(continuation)
        return .wait
    }

    /// The partition-pause watch ends; returns its continuation if it was waiting.
    mutating func endHoldWatch() -> CheckedContinuation<UInt64?, Never>? {
        defer { holdWatch = .ended }
        if case .waiting(let continuation) = holdWatch { return continuation }
        return nil
    }

    /// Hold number `hold` stayed on through the delay: true when the partitions are to be paused in
    /// librdkafka now (not when the gate opened since, even if it closed again).
    mutating func pausePartitionsIfStillHeld(_ hold: UInt64) -> Bool {
        guard hold == holdCount, case .held(let loop, false) = intake else { return false }
        intake = .held(loop: loop, partitionsPaused: true)
        return true
    }

    /// The message loop is ending (graceful shutdown or cancellation). Returns the loop's continuation if it
    /// was waiting for the gate.
    mutating func stopIntake() -> CheckedContinuation<Void, Never>? {
        switch intake {
        case .open:
            intake = .stopping(partitionsPaused: false)
            return nil
        case .held(let loop, let paused):
            intake = .stopping(partitionsPaused: paused)
            return loop
        case .stopping:
            return nil
        }
    }

    // MARK: Waiters

    /// A new waiter id for ``wait(_:for:_:)`` and ``stopWaiting(_:)``.
    mutating func makeWaiter() -> Int {
        lastWaiter += 1
        waiters[lastWaiter] = .registered
        return lastWaiter
    }

    /// Waits for `condition`: false when the caller must resume `continuation` now (the condition holds, or
    /// the wait was stopped before it began); else an event's action resumes it.
    mutating func wait(_ id: Int, for condition: Condition, _ continuation: CheckedContinuation<Void, Never>) -> Bool {
        guard case .registered? = waiters[id], !holds(condition) else {
            waiters[id] = nil
            return false
        }
        waiters[id] = .waiting(condition, continuation)
        return true
    }

    /// The waiter gives up (its deadline passed, or its task was cancelled). Returns its continuation to
    /// resume if it was waiting.
    mutating func stopWaiting(_ id: Int) -> CheckedContinuation<Void, Never>? {
        guard case .waiting(_, let continuation)? = waiters.removeValue(forKey: id) else { return nil }
        return continuation
    }

    // MARK: Helpers

    private mutating func start(_ run: RunID, _ pending: PendingRequest, into action: inout Action) {
        messages[pending.position] = .running(pending, run)
        runs[run] = .starting
        action.start = RunStart(run: run, request: pending.request)
    }

    /// Cancels the runs coordination gave up and answers the requests it took off them.
    private mutating func interrupt(_ cancellation: TaskCancellation, into action: inout Action) {
        cancelRuns(cancellation.runs, into: &action)
        for answer in cancellation.answers {
            self.answer(answer.request, into: &action) { .interrupted($0, answer.reason) }
        }
    }

    private mutating func cancelRuns(_ ids: [RunID], into action: inout Action) {
        for id in ids {
            switch runs[id] {
            case .running(let task)?:
                runs[id] = nil
                action.cancel.append(task)
            case .starting?:
                runs[id] = .cancelledBeforeStart
            case .cancelledBeforeStart?, nil:
                break
            }
        }
    }

    /// The request's answer is decided: its message moves from running to answering.
    private mutating func answer(_ request: AttachedRequest, into action: inout Action, _ make: (PendingRequest) -> Answer) {
        guard let index = messages.index(forKey: request.position),
            case .running(let pending, _) = messages.values[index]
        else { return }
        messages.values[index] = .answering
        action.publish.append(Delivery(position: request.position, answer: make(pending)))
    }

    private mutating func done(_ position: MessagePosition, into action: inout Action) {
        if let next = offsets.done(position) { action.store[position.partition] = next }
    }

    /// The end of every event: the gate hears the count (pausing or resuming the loop and partitions), and
    /// waiters whose condition now holds are woken.
    mutating func settle(_ action: inout Action) {
        switch gate.update(inFlight: offsets.active) {
        case .none:
            break
        case .pause:
            if case .open = intake {
                intake = .held(loop: nil, partitionsPaused: false)
                holdCount &+= 1
            }
        case .resume:
            switch intake {
            case .held(let loop, let paused):
                intake = .open
                action.resumeLoop = loop
                action.resumePartitions = paused
            case .stopping(true):
                intake = .stopping(partitionsPaused: false)
                action.resumePartitions = true
            case .open, .stopping(false):
                break
            }
        }
        guard !waiters.isEmpty else { return }
        for (id, waiter) in waiters {
            guard case .waiting(let condition, let continuation) = waiter, holds(condition) else { continue }
            waiters[id] = nil
            action.resumeWaiters.append(continuation)
        }
    }
}
