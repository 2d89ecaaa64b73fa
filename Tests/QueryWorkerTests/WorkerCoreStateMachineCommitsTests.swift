import Kafka
import Testing
@testable import RequestContract

@testable import QueryWorker

/// Answers held while the group coordinator refuses commits, without I/O.
@Suite("WorkerCore.StateMachine: commits refused, as a value")
struct WorkerCoreStateMachineCommitsTests {
    private static let partition = KafkaTopicPartition(topic: "requests", partition: 0)

    private func machine() -> WorkerCore.StateMachine {
        var machine = WorkerCore.StateMachine(gate: InFlightGate(maxInFlight: 10, lowMark: nil))
        machine.assign([Self.partition])
        return machine
    }

    private func rejected(_ offset: Int64) -> (WorkerCore.StateMachine.Arrival, MessagePosition) {
        let position = MessagePosition(Self.partition, offset: offset)
        let source = MessageSource(topic: "requests", partition: 0, offset: offset, key: nil)
        return (.rejected(RejectedRequest(code: .invalidJSON, message: "not JSON"), source, receivedAt: 0), position)
    }

    @Test func aWaiterForAcceptedCommitsWaitsOnlyWhileTheyAreRefusedAndTheAcceptanceWakesIt() async {
        var machine = machine()
        #expect(machine.holds(.commitsAccepted))
        let first = machine.commitRefused()
        #expect(first, "the first refusal is news")
        let second = machine.commitRefused()
        #expect(!second, "a second refusal is not")
        #expect(!machine.holds(.commitsAccepted))
        let id = machine.makeWaiter()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = machine.wait(id, for: .commitsAccepted, continuation)
            #expect(waits)
            let accepted = machine.commitsAccepted()
            #expect(accepted.resumeWaiters.count == 1)
            for waiter in accepted.resumeWaiters { waiter.resume() }
        }
        let again = machine.commitsAccepted()
        #expect(again.resumeWaiters.isEmpty, "accepting again changes nothing")
        let refusedAgain = machine.commitRefused()
        #expect(refusedAgain, "a refusal after an acceptance is news again")
    }

    @Test func anAnswerWaitingForCommitsIsDroppedOnceItsPartitionIsForgottenAndKeptOtherwise() {
        var machine = machine()
        let (arrival, position) = rejected(0)
        let (_, action) = machine.receive(arrival, at: position, nowMs: 0)
        #expect(action.publish.count == 1, "answered at once")
        _ = machine.commitRefused()
        #expect(machine.isTracked(position), "held, still this worker's to answer")
        _ = machine.forget([Self.partition], lost: true)
        #expect(!machine.isTracked(position), "revoked without a commit: the next owner answers it")
    }

    @Test func answersPastTheConfirmedCommitAreWhatTheNextOwnerRepeats() {
        var machine = machine()
        let positions = (Int64(40)...44).map { offset in
            let (arrival, position) = rejected(offset)
            _ = machine.receive(arrival, at: position, nowMs: 0)
            return position
        }
        #expect(machine.answeredPastCommit() == 0, "answered, nothing published yet")
        _ = machine.queued(positions[0])
        _ = machine.queued(positions[1])
        _ = machine.queued(positions[3])
        #expect(machine.answeredPastCommit() == 3, "in the producer's queue: published whatever comes next")
        _ = machine.delivered(positions[0])
        _ = machine.delivered(positions[1])
        _ = machine.delivered(positions[3])
        #expect(machine.answeredPastCommit([Self.partition]) == 3, "delivered, not committed")
        _ = machine.committed([Self.partition: 42])
        #expect(machine.answeredPastCommit() == 1, "40 and 41 committed; 43 delivered past the undone 42")
        _ = machine.committed([Self.partition: 41])
        #expect(machine.answeredPastCommit() == 1, "a late answer to an older commit moves nothing back")
        _ = machine.committed([KafkaTopicPartition(topic: "requests", partition: 9): 100])
        #expect(machine.answeredPastCommit() == 1, "a partition not held is ignored")
        _ = machine.forget([Self.partition], lost: true)
        #expect(machine.answeredPastCommit([Self.partition]) == 0, "gone: nothing of it is counted")
    }

    @Test func theResumeOffsetIsWhereTheNextOwnerStartsNeverPastAnUndoneMessage() {
        var tracker = PartitionOffsetTracker()
        #expect(tracker.resumeOffset == nil, "nothing read")
        tracker.received(40)
        tracker.received(41)
        tracker.received(42)
        #expect(tracker.resumeOffset == 40, "nothing done: where this owner started")
        _ = tracker.done(41)
        #expect(tracker.resumeOffset == 40, "41 done, 40 not")
        _ = tracker.done(40)
        #expect(tracker.resumeOffset == 42, "the committable offset")
    }
}
