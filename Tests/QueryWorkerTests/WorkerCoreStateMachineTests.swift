import FeatureQuerySupport
import Kafka
import Testing
@testable import RequestContract

@testable import QueryWorker

private let topic = "requests"
private func partition(_ number: Int32) -> KafkaTopicPartition { KafkaTopicPartition(topic: topic, partition: number) }
private func position(_ offset: Int64, partition number: Int32 = 0) -> MessagePosition {
    MessagePosition(partition(number), offset: offset)
}
private func source(_ position: MessagePosition) -> MessageSource {
    MessageSource(topic: topic, partition: position.partition.partition, offset: position.offset, key: nil)
}

/// A query for `task`; `query` picks the work (equal numbers share a run).
private func query(_ id: String, task: String? = nil, query: Int = 0, deadline: Int64? = nil, at position: MessagePosition) -> WorkerCore.StateMachine.Arrival {
    let request = QueryRequest(
        requestId: id, taskId: task, deadline: deadline, receivedAt: 0,
        targets: [.arcgis(url: "https://gis.example.org/a/MapServer", layers: [0])], query: QuerySpec(maxFeatures: query + 1))
    return .query(request, source(position))
}

private func rejected(at position: MessagePosition) -> WorkerCore.StateMachine.Arrival {
    .rejected(RejectedRequest(code: .invalidJSON, message: "not JSON"), source(position), receivedAt: 0)
}

private func result(_ id: String) -> ExecutionOutcome {
    .result(ResultMessage(requestId: id, taskId: id, layers: [], receivedAt: 0, finishedAt: 1, worker: "w"))
}

extension WorkerCore.StateMachine.Answer {
    /// Request id and what the answer says, for comparisons.
    var summary: String {
        switch self {
        case .rejected: "rejected"
        case .result(let pending, let result): "\(pending.request.requestId): result for \(result.requestId)"
        case .failed(let pending, let error): "\(pending.request.requestId): failed \(error.code.rawValue)"
        case .interrupted(let pending, let reason): "\(pending.request.requestId): \(reason.code.rawValue)"
        }
    }
}

extension WorkerCore.StateMachine.Action {
    var answers: [String] { publish.map(\.answer.summary) }
}

extension WorkerCore.StateMachine {
    var isHeld: Bool { if case .held = intake { true } else { false } }

    /// Receives a message whose action the test does not look at.
    mutating func setUp(_ arrival: Arrival, at position: MessagePosition) -> Action {
        receive(arrival, at: position, nowMs: 0).1
    }
}

/// The request life cycle machine without I/O: each event's action, and a randomised model of the whole.
@Suite("WorkerCore.StateMachine: each event's action, as a value")
struct WorkerCoreStateMachineTests {
    private func machine(maxInFlight: Int = 100, lowMark: Int? = nil, partitions: Int32 = 1) -> WorkerCore.StateMachine {
        var machine = WorkerCore.StateMachine(gate: InFlightGate(maxInFlight: maxInFlight, lowMark: lowMark))
        machine.assign((0..<partitions).map(partition))
        return machine
    }

    @Test func aQueryRunsIsAnsweredAndIsDoneOnlyWhenItsOutcomeIsDelivered() {
        var machine = machine()
        let (receipt, received) = machine.receive(query("a", at: position(0)), at: position(0), nowMs: 0)
        #expect(receipt == .started(RunID(1)))
        #expect(received.start?.run == RunID(1) && received.publish.isEmpty && received.store.isEmpty)
        #expect(machine.gateLoad == 1 && machine.holds(.idle) == false)

        let finished = machine.runFinished(RunID(1), result("a"))
        #expect(finished.answers == ["a: result for a"])
        #expect(finished.store.isEmpty, "nothing is stored before the delivery report")
        #expect(machine.gateLoad == 1, "answering still counts")
        let queued = machine.queued(position(0))
        #expect(queued.store.isEmpty)
        #expect(machine.gateLoad == 0 && machine.inFlight == 1, "queued: out of the gate, offset still held")
        let delivered = machine.delivered(position(0))
        #expect(delivered.store == [partition(0): 1])
        #expect(machine.inFlight == 0 && machine.holds(.idle) && machine.answeredCount == 1)
    }

    @Test func requestsSharingARunGetItsResultEachUnderItsOwnId() {
        var machine = machine()
        _ = machine.setUp(query("a", task: "t", at: position(0)), at: position(0))
        let (receipt, _) = machine.receive(query("b", task: "t", at: position(1)), at: position(1), nowMs: 0)
        #expect(receipt == .shared(RunID(1)))
        let finished = machine.runFinished(RunID(1), result("a"))
        #expect(finished.answers == ["a: result for a", "b: result for b"])
    }

    @Test func aDifferentQuerySupersedesTheRunAndCancelsItsTask() {
        var machine = machine()
        _ = machine.setUp(query("a", task: "t", query: 1, at: position(0)), at: position(0))
        let task = RunHandle(run: RunID(1), tasks: RunTasks())
        let cancelsTask = machine.runTaskCreated(RunID(1), task)
        #expect(!cancelsTask)
        let (receipt, action) = machine.receive(query("b", task: "t", query: 2, at: position(1)), at: position(1), nowMs: 0)
        #expect(receipt == .started(RunID(2)))
        #expect(action.answers == ["a: superseded"])
        #expect(action.cancel == [task])
        #expect(action.start?.run == RunID(2))
        // The superseded run's late return answers nothing.
        let finished = machine.runFinished(RunID(1), .cancelled)
        #expect(finished.publish.isEmpty)
    }

    @Test func aRunCancelledBeforeItsTaskIsHandedOverIsCancelledThen() {
        var machine = machine()
        _ = machine.setUp(query("a", task: "t", at: position(0)), at: position(0))
        let (_, cancel) = machine.receive(.cancel(taskId: "t"), at: position(1), nowMs: 0)
        #expect(cancel.answers == ["a: cancel_requested"])
        #expect(cancel.cancel.isEmpty, "no task yet")
        let cancelsTask = machine.runTaskCreated(RunID(1), RunHandle(run: RunID(1), tasks: RunTasks()))
        #expect(cancelsTask, "the task is cancelled as soon as it exists")
    }

    @Test func aCancelMessageIsDoneAtOnceButHeldBehindTheRequestItCancels() {
        var machine = machine()
        _ = machine.setUp(query("a", task: "t", at: position(0)), at: position(0))
        let (receipt, action) = machine.receive(.cancel(taskId: "t"), at: position(1), nowMs: 0)
        #expect(receipt == .cancel(runs: 1))
        #expect(action.store.isEmpty, "offset 0 is not delivered yet")
        _ = machine.queued(position(0))
        let delivered = machine.delivered(position(0))
        #expect(delivered.store == [partition(0): 2])
    }

    /// Issue 11, 1.3: a run cancelled with the worker's task (shutdown) was answered `cancel_requested`.
    @Test func aRunEndingCancelledWithRequestsOnItIsAnsweredShutdown() {
        var machine = machine()
        _ = machine.setUp(query("a", task: "t", at: position(0)), at: position(0))
        _ = machine.setUp(query("b", task: "t", at: position(1)), at: position(1))
        let finished = machine.runFinished(RunID(1), .cancelled)
        #expect(finished.answers == ["a: shutdown", "b: shutdown"])
    }

    @Test func eachTerminalReasonHasOneCodeChosenWhereItIsDecided() {
        var machine = machine(partitions: 2)
        _ = machine.setUp(query("late", deadline: 5, at: position(0)), at: position(0))
        let expired = machine.expireDue(nowMs: 10)
        #expect(expired.answers == ["late: deadline_exceeded"])
        _ = machine.setUp(query("gone", at: position(1)), at: position(1))
        let revoked = machine.revoke([partition(0)])
        #expect(revoked.1.answers == ["gone: partition_revoked"])
        _ = machine.setUp(query("failing", at: position(0, partition: 1)), at: position(0, partition: 1))
        let failure = ContractError.allLayersFailed([(url: "https://gis.example.org/a/MapServer/0", error: ContractError(.invalidValue, "x"))])
        let finished = machine.runFinished(RunID(3), .failed(failure))
        #expect(finished.answers == ["failing: failed invalid_value"])
        _ = machine.setUp(query("slow", at: position(1, partition: 1)), at: position(1, partition: 1))
        let finished2 = machine.runFinished(RunID(4), .expired)
        #expect(finished2.answers == ["slow: deadline_exceeded"])
        _ = machine.setUp(query("stopped", at: position(2, partition: 1)), at: position(2, partition: 1))
        let stopped = machine.shutDown()
        #expect(stopped.answers == ["stopped: shutdown"])
        let (receipt, late) = machine.receive(query("after", at: position(3, partition: 1)), at: position(3, partition: 1), nowMs: 0)
        #expect(receipt == .answeredWithoutRun && late.answers == ["after: shutdown"])
        let received = machine.receive(rejected(at: position(4, partition: 1)), at: position(4, partition: 1), nowMs: 0)
        #expect(received.1.answers == ["rejected"])
    }

    @Test func everyAnswerBecomesOneMessageWithTheContractsStatusAndCode() {
        let pending = PendingRequest(
            request: QueryRequest(
                requestId: "r", receivedAt: 0, targets: [.arcgis(url: "https://gis.example.org/a/MapServer", layers: [0])],
                query: QuerySpec()),
            source: source(position(0)), position: position(0))
        let answers: [(WorkerCore.StateMachine.Answer, String, String?)] = [
            (.rejected(RejectedRequest(code: .invalidJSON, message: "x"), source(position(0)), receivedAt: 0), "rejected", "invalid_json"),
            (.result(pending, ResultMessage(requestId: "r", taskId: "r", layers: [], receivedAt: 0, finishedAt: 0, worker: "w")), "succeeded", nil),
            (.failed(pending, ContractError(.resultTooLarge, "x")), "failed", "result_too_large"),
            (.interrupted(pending, .superseded(by: "s")), "superseded", "superseded"),
            (.interrupted(pending, .cancelled(.requested)), "cancelled", "cancel_requested"),
            (.interrupted(pending, .cancelled(.shutdown)), "cancelled", "shutdown"),
            (.interrupted(pending, .cancelled(.partitionRevoked)), "cancelled", "partition_revoked"),
            (.interrupted(pending, .expired), "expired", "deadline_exceeded"),
        ]
        for (answer, status, code) in answers {
            let message = OutcomeMessage(answer, worker: "w", finishedAt: 1)
            #expect(message.status == status)
            if case .error(let error) = message { #expect(error.error.code.rawValue == code) } else { #expect(code == nil) }
        }
    }

    @Test func aDuplicateIsDoneAtOnceAndAnsweredOnce() {
        var machine = machine()
        _ = machine.setUp(query("a", at: position(0)), at: position(0))
        let (receipt, action) = machine.receive(query("a", at: position(1)), at: position(1), nowMs: 0)
        #expect(receipt == .duplicate && action.store.isEmpty)
        let finished = machine.runFinished(RunID(1), result("a"))
        #expect(finished.answers == ["a: result for a"])
        _ = machine.queued(position(0))
        let delivered = machine.delivered(position(0))
        #expect(delivered.store == [partition(0): 2])
    }

    @Test func anUndeliveredOutcomeIsSentAgainWhileItsPartitionIsHeldElseLeftWithItsOffset() {
        var machine = machine(partitions: 2)
        _ = machine.setUp(rejected(at: position(0)), at: position(0))
        _ = machine.queued(position(0))
        guard case .retry = machine.deliveryFailed(position(0), retryable: true) else {
            Issue.record("a held partition's outcome is sent again")
            return
        }
        guard case .giveUp(let action) = machine.deliveryFailed(position(0), retryable: false) else {
            Issue.record("the producer shutting down gives up")
            return
        }
        #expect(action.store.isEmpty && machine.inFlight == 1, "its offset stays held")
        #expect(machine.holds(.idle), "nothing more to wait for")

        _ = machine.setUp(rejected(at: position(0, partition: 1)), at: position(0, partition: 1))
        _ = machine.stopIntake()
        guard case .giveUp = machine.deliveryFailed(position(0, partition: 1), retryable: true) else {
            Issue.record("a stopping worker leaves the outcome to the next owner")
            return
        }
    }

    /// The gate counts requests running or being answered: it resumes when outcomes are queued, not delivered.
    @Test func theGateResumesWhenOutcomesAreQueuedNotWhenTheyAreDelivered() {
        var machine = machine(maxInFlight: 4, lowMark: 2)
        for offset in Int64(0)..<4 { _ = machine.setUp(rejected(at: position(offset)), at: position(offset)) }
        #expect(machine.gate.isPaused && machine.isHeld)
        let queued = machine.queued(position(0))
        #expect(!queued.resumePartitions && machine.isHeld)
        _ = machine.queued(position(1))
        #expect(!machine.gate.isPaused && !machine.isHeld)
        #expect(machine.inFlight == 4, "nothing is done until the delivery reports are back")
    }

    @Test func partitionsPausedWhileHeldAreResumedWithTheGate() async {
        var machine = machine(maxInFlight: 1, lowMark: 0)
        _ = machine.setUp(rejected(at: position(0)), at: position(0))
        let pauses = machine.pausePartitionsIfStillHeld(machine.holdCount)
        #expect(pauses)
        let pauses2 = machine.pausePartitionsIfStillHeld(machine.holdCount)
        #expect(!pauses2, "paused once")
        let action = machine.queued(position(0))
        #expect(action.resumePartitions)
    }

    /// The partition-pause watch saw a hold start; the gate opened and closed again before its delay ended.
    /// The new hold has not lasted the delay: nothing is paused for it yet.
    @Test func aHoldThatEndedIsNotPausedWhenAnotherHasBegun() {
        var machine = machine(maxInFlight: 1, lowMark: 0)
        _ = machine.setUp(rejected(at: position(0)), at: position(0))
        let first = machine.holdCount
        #expect(machine.isHeld)
        _ = machine.queued(position(0))
        #expect(!machine.isHeld)
        _ = machine.setUp(rejected(at: position(1)), at: position(1))
        #expect(machine.isHeld && machine.holdCount == first + 1, "each closing of the gate is a hold of its own")
        let stale = machine.pausePartitionsIfStillHeld(first)
        #expect(!stale, "the watched hold ended")
        let current = machine.pausePartitionsIfStillHeld(machine.holdCount)
        #expect(current, "the current hold, once it lasted the delay")
    }

    @Test func lostPartitionsStopTheirRunsWithoutAnswersAndReleaseTheGate() {
        var machine = machine(maxInFlight: 2, lowMark: 0, partitions: 2)
        _ = machine.setUp(query("a", at: position(0)), at: position(0))
        let task = RunHandle(run: RunID(1), tasks: RunTasks())
        _ = machine.runTaskCreated(RunID(1), task)
        _ = machine.setUp(query("b", at: position(1)), at: position(1))
        #expect(machine.isHeld)
        let action = machine.forget([partition(0)], lost: true)
        #expect(action.publish.isEmpty && action.cancel == [task])
        #expect(!machine.isHeld && machine.holds(.idle))
        let finished = machine.runFinished(RunID(1), .cancelled)
        #expect(finished.publish.isEmpty)
    }

    /// Issue 11, 1.2: waiting is event-driven: the event that makes the condition true resumes the waiter.
    @Test func theEventThatMakesAConditionTrueResumesItsWaiter() async {
        var machine = machine()
        _ = machine.setUp(rejected(at: position(0)), at: position(0))
        let id = machine.makeWaiter()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = machine.wait(id, for: .idle, continuation)
            #expect(waits)
            let queued = machine.queued(position(0))
            #expect(queued.resumeWaiters.isEmpty)
            let delivered = machine.delivered(position(0))
            #expect(delivered.resumeWaiters.count == 1)
            for waiter in delivered.resumeWaiters { waiter.resume() }
        }
        let stoppedWaiter = machine.stopWaiting(id)
        #expect(stoppedWaiter == nil, "resumed once")
    }

    @Test func aWaitStoppedBeforeItBeganReturnsAtOnce() async {
        var machine = machine()
        _ = machine.setUp(rejected(at: position(0)), at: position(0))
        let id = machine.makeWaiter()
        let stoppedWaiter = machine.stopWaiting(id)
        #expect(stoppedWaiter == nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = machine.wait(id, for: .idle, continuation)
            #expect(!waits, "the caller resumes it")
            continuation.resume()
        }
        let second = machine.makeWaiter()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits2 = machine.wait(second, for: .noRuns, continuation)
            #expect(!waits2, "the condition holds already")
            continuation.resume()
        }
    }
}

/// Drives ``WorkerCore.StateMachine`` with random events, as the worker would (messages are taken only while the
/// loop is not held), and checks it against a plain reference: every message owed an answer gets exactly one,
/// offsets are stored only over messages whose outcome was delivered (or that needed none), and the gate's
/// count never exceeds `maxInFlight`.
@Suite("WorkerCore.StateMachine: a randomised model")
struct WorkerCoreStateMachineModelTests {
    /// What the reference knows of one message.
    private enum Expected {
        /// A query or rejection: owes one answer.
        case owed
        /// Answered; `queued` once in the producer's queue.
        case answered(queued: Bool)
        /// Delivered, or needing no answer (a cancel, a duplicate): may be committed past.
        case done
        /// Its outcome was given up on: holds the commit until the partition goes.
        case abandoned
    }

    private struct Model {
        var messages: [MessagePosition: Expected] = [:]
        var answers: [MessagePosition: Int] = [:]
        var stored: [KafkaTopicPartition: Int64] = [:]
        var liveRuns: Set<RunID> = []

        /// Checks an action against the reference and records what it did.
        mutating func apply(_ action: WorkerCore.StateMachine.Action, maxInFlight: Int, machine: WorkerCore.StateMachine) {
            for delivery in action.publish {
                answers[delivery.position, default: 0] += 1
                #expect(answers[delivery.position] == 1, "\(delivery.position) answered twice")
                guard case .owed? = messages[delivery.position] else {
                    Issue.record("\(delivery.position) answered but owed nothing")
                    continue
                }
                messages[delivery.position] = .answered(queued: false)
            }
            for (partition, offset) in action.store {
                #expect(offset > stored[partition] ?? -1, "the stored offset of \(partition) went back")
                stored[partition] = offset
                for (position, expected) in messages where position.partition == partition && position.offset < offset {
                    guard case .done = expected else {
                        Issue.record("stored \(offset) past \(position), which is \(expected)")
                        continue
                    }
                }
            }
            if let start = action.start { liveRuns.insert(start.run) }
            #expect(machine.gateLoad <= maxInFlight, "the gate's count exceeded maxInFlight")
        }

        func positions(where matches: (Expected) -> Bool) -> [MessagePosition] {
            messages.filter { matches($0.value) }.keys.sorted { ($0.partition.partition, $0.offset) < ($1.partition.partition, $1.offset) }
        }
    }

    @Test(arguments: 0..<16)
    func everyMessageIsAnsweredOnceAndCommittedOnlyWhenDelivered(seed: Int) {
        var rng = SplitMix64.scrambled(seed: UInt64(seed) &+ 7000)
        let maxInFlight = Int.random(in: 1...8, using: &rng)
        var machine = WorkerCore.StateMachine(gate: InFlightGate(maxInFlight: maxInFlight))
        let partitions = (Int32(0)..<3).map(partition)
        machine.assign(partitions)
        var model = Model()
        var nextOffset: [KafkaTopicPartition: Int64] = [:]
        var nowMs: Int64 = 0
        var nextRequest = 0
        var stopped = false

        func receive(_ arrivalFor: (MessagePosition) -> WorkerCore.StateMachine.Arrival, on partition: KafkaTopicPartition) {
            let offset = nextOffset[partition, default: 0]
            nextOffset[partition] = offset + 1
            let position = MessagePosition(partition, offset: offset)
            let arrival = arrivalFor(position)
            let (receipt, action) = machine.receive(arrival, at: position, nowMs: nowMs)
            switch receipt {
            case .ignored: break
            case .cancel, .duplicate: model.messages[position] = .done
            case .rejected, .started, .shared, .answeredWithoutRun: model.messages[position] = .owed
            }
            if case .duplicate = receipt {
                #expect(action.publish.isEmpty)
            }
            model.apply(action, maxInFlight: maxInFlight, machine: machine)
        }

        for step in 0..<3000 {
            if !stopped, step == 2500 {
                stopped = true
                _ = machine.stopIntake()
                model.apply(machine.shutDown(), maxInFlight: maxInFlight, machine: machine)
            }
            let partition = partitions.randomElement(using: &rng) ?? partitions[0]
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<30 where !machine.isHeld && !stopped:
                let id: String
                if nextRequest > 0, Int.random(in: 0..<6, using: &rng) == 0 {
                    id = "r\(Int.random(in: max(0, nextRequest - 10)..<nextRequest, using: &rng))"
                } else {
                    id = "r\(nextRequest)"
                    nextRequest += 1
                }
                let task = "t\(Int.random(in: 0..<5, using: &rng))"
                let work = Int.random(in: 0..<2, using: &rng)
                let deadline: Int64? = Bool.random(using: &rng) ? nil : nowMs + Int64.random(in: -10...100, using: &rng)
                receive({ query(id, task: task, query: work, deadline: deadline, at: $0) }, on: partition)
            case 30..<34 where !machine.isHeld && !stopped:
                receive(rejected(at:), on: partition)
            case 34..<37 where !machine.isHeld && !stopped:
                let task = "t\(Int.random(in: 0..<5, using: &rng))"
                receive({ _ in .cancel(taskId: task) }, on: partition)
            case 37..<50:
                guard let run = model.liveRuns.randomElement(using: &rng) else { continue }
                model.liveRuns.remove(run)
                let outcomes: [ExecutionOutcome] = [result("x"), .failed(ContractError(.invalidValue, "x")), .expired, .cancelled]
                let outcome = outcomes.randomElement(using: &rng) ?? .cancelled
                model.apply(machine.runFinished(run, outcome), maxInFlight: maxInFlight, machine: machine)
            case 50..<58:
                nowMs += Int64.random(in: 0...30, using: &rng)
                model.apply(machine.expireDue(nowMs: nowMs), maxInFlight: maxInFlight, machine: machine)
            case 58..<72:
                guard let position = model.positions(where: { if case .answered(false) = $0 { true } else { false } }).randomElement(using: &rng) else { continue }
                model.messages[position] = .answered(queued: true)
                model.apply(machine.queued(position), maxInFlight: maxInFlight, machine: machine)
            case 72..<86:
                guard let position = model.positions(where: { if case .answered(true) = $0 { true } else { false } }).randomElement(using: &rng) else { continue }
                if Int.random(in: 0..<5, using: &rng) == 0 {
                    let retryable = Bool.random(using: &rng)
                    switch machine.deliveryFailed(position, retryable: retryable) {
                    case .retry:
                        #expect(retryable && !stopped)
                    case .giveUp(let action):
                        #expect(!retryable || stopped)
                        model.messages[position] = .abandoned
                        model.apply(action, maxInFlight: maxInFlight, machine: machine)
                    }
                } else {
                    model.messages[position] = .done
                    model.apply(machine.delivered(position), maxInFlight: maxInFlight, machine: machine)
                }
            case 86..<88:
                // Revocation: the partition's requests on runs are answered, delivered, then the partition goes;
                // it is assigned again later (as after a rebalance), from the committed offset on.
                let (_, action) = machine.revoke([partition])
                model.apply(action, maxInFlight: maxInFlight, machine: machine)
                #expect(action.publish.allSatisfy { $0.position.partition == partition })
                forget(partition, lost: false)
            case 88..<89:
                forget(partition, lost: true)
            default:
                nowMs += Int64.random(in: 0...5, using: &rng)
            }
        }

        func forget(_ partition: KafkaTopicPartition, lost: Bool) {
            let action = machine.forget([partition], lost: lost)
            #expect(action.publish.isEmpty && action.store.isEmpty)
            model.apply(action, maxInFlight: maxInFlight, machine: machine)
            // Whatever was not delivered is the next owner's: it reads those messages again.
            for position in model.messages.keys where position.partition == partition {
                if case .owed = model.messages[position] { model.answers[position] = nil }
                model.messages[position] = nil
            }
            machine.assign([partition])
            model.stored[partition] = nil
            #expect(machine.holds(.partitionsDone([partition])))
        }

        // Let every run finish and every outcome be delivered: then each message owed an answer had one.
        for run in model.liveRuns { model.apply(machine.runFinished(run, result("x")), maxInFlight: maxInFlight, machine: machine) }
        for position in model.positions(where: { if case .answered(false) = $0 { true } else { false } }) {
            model.apply(machine.queued(position), maxInFlight: maxInFlight, machine: machine)
            model.messages[position] = .answered(queued: true)
        }
        for position in model.positions(where: { if case .answered(true) = $0 { true } else { false } }) {
            model.messages[position] = .done
            model.apply(machine.delivered(position), maxInFlight: maxInFlight, machine: machine)
        }
        let unanswered = model.positions { if case .owed = $0 { true } else { false } }
        #expect(unanswered.isEmpty, "never answered: \(unanswered)")
        #expect(machine.holds(.idle))
        #expect(model.answers.count > 100, "the run proves something")
    }
}

extension WorkerCore.StateMachine {
    /// Messages received whose outcome is not yet in the producer's queue: what the gate bounds (the offset
    /// tracker's `active`, which `settle` hands to the gate).
    var gateLoad: Int { offsets.active }
}
