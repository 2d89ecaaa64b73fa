import Kafka
import Testing
@testable import RequestContract

@testable import QueryWorker

private let topic = "feature-queries"

private func position(_ partition: Int32 = 0, _ offset: Int64 = 0) -> MessagePosition {
    MessagePosition(KafkaTopicPartition(topic: topic, partition: partition), offset: offset)
}

private func request(
    _ requestId: String,
    task: String? = nil,
    query: String = "q",
    partition: Int32 = 0,
    offset: Int64 = 0,
    deadline: Int64? = nil
) -> TaskRegistry<String>.Request {
    TaskRegistry<String>.Request(
        requestId: requestId,
        taskId: task ?? requestId,
        fingerprint: query,
        position: position(partition, offset),
        deadlineMs: deadline
    )
}

private func ids(_ answers: [TaskAnswer]) -> [String] { answers.map(\.requestId) }
private func ids(_ requests: [AttachedRequest]) -> [String] { requests.map(\.requestId) }

extension TaskAnswer {
    /// The request that replaced this one, for a superseded answer.
    var supersededBy: String? { if case .superseded(let newer) = reason { newer } else { nil } }
}

extension TaskRegistry.ReceiveAction {
    /// The run to start for the request's query, if any.
    var runToStart: RunID? {
        switch self {
        case .start(let run), .supersede(_, start: let run): run
        case .share, .duplicate, .answerWithoutRun: nil
        }
    }

    /// Runs to cancel and answers to publish now, the request's own answer included.
    var cancellation: TaskCancellation {
        switch self {
        case .start, .share, .duplicate: .none
        case .supersede(let cancellation, _): cancellation
        case .answerWithoutRun(let answer, let cancelling):
            TaskCancellation(runs: cancelling.runs, answers: cancelling.answers + [answer])
        }
    }
}

@Suite("Coordination: TaskRegistry transitions")
struct CoordinationTaskRegistryTests {
    @Test func aNewTaskStartsARun() {
        var registry = TaskRegistry<String>()
        let action = registry.receive(request("a", task: "t", offset: 1), nowMs: 0)
        #expect(action == .start(RunID(1)))
        #expect(action.runToStart == RunID(1))
        #expect(action.cancellation.isEmpty)
        #expect(registry.runCount == 1)
        #expect(registry.finished(RunID(1)) == [request("a", task: "t", offset: 1).attached])
    }

    @Test func differentTasksRunSideBySide() {
        var registry = TaskRegistry<String>()
        #expect(registry.receive(request("a", task: "t1"), nowMs: 0) == .start(RunID(1)))
        #expect(registry.receive(request("b", task: "t2"), nowMs: 0) == .start(RunID(2)))
        #expect(registry.runCount == 2)
    }

    @Test func finishAnswersTheRequestOnce() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        let answers = registry.finished(RunID(1))
        #expect(answers == [request("a", task: "t").attached])
        #expect(registry.finished(RunID(1)).isEmpty)
        #expect(registry.runCount == 0)
    }

    @Test func runIDsAreNeverReused() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        _ = registry.finished(RunID(1))
        #expect(registry.receive(request("b", task: "t"), nowMs: 0) == .start(RunID(2)))
        // A very late return of run 1 must not answer run 2's request.
        #expect(registry.finished(RunID(1)).isEmpty)
        #expect(ids(registry.finished(RunID(2))) == ["b"])
    }

    @Test func aDifferentQueryForTheTaskSupersedesItsRun() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t", query: "q1"), nowMs: 0)
        let action = registry.receive(request("b", task: "t", query: "q2", offset: 1), nowMs: 0)
        let expected = TaskCancellation(
            runs: [RunID(1)],
            answers: [TaskAnswer(request("a", task: "t", query: "q1").attached, .superseded(by: "b"))]
        )
        #expect(action == .supersede(expected, start: RunID(2)))
        #expect(action.runToStart == RunID(2))
        #expect(action.cancellation == expected)
        // The superseded run returns later: nothing more to say for "a".
        #expect(registry.finished(RunID(1)).isEmpty)
        #expect(ids(registry.finished(RunID(2))) == ["b"])
    }

    @Test func aSupersessionChainAnswersEachRequestByItsSuccessor() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("A", task: "t", query: "1"), nowMs: 0)
        let b = registry.receive(request("B", task: "t", query: "2"), nowMs: 0)
        let c = registry.receive(request("C", task: "t", query: "3"), nowMs: 0)
        #expect(b.cancellation.runs == [RunID(1)])
        #expect(b.cancellation.answers.map { [$0.requestId, $0.supersededBy] } == [["A", "B"]])
        #expect(c.cancellation.runs == [RunID(2)])
        #expect(c.cancellation.answers.map { [$0.requestId, $0.supersededBy] } == [["B", "C"]])
        #expect(c.cancellation.answers.map(\.reason) == [.superseded(by: "C")])
        #expect(registry.finished(RunID(1)).isEmpty)
        #expect(registry.finished(RunID(2)).isEmpty)
        #expect(ids(registry.finished(RunID(3))) == ["C"])
    }

    @Test func anEqualQueryForTheTaskSharesItsRun() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t", offset: 1), nowMs: 0)
        let action = registry.receive(request("b", task: "t", offset: 2), nowMs: 0)
        #expect(action == .share(RunID(1)))
        #expect(action.runToStart == nil && action.cancellation.isEmpty)
        let answers = registry.finished(RunID(1))
        #expect(ids(answers) == ["a", "b"])
        #expect(answers.map(\.position.offset) == [1, 2])
    }

    @Test func anEqualQueryOnAnotherTaskDoesNotShare() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t1"), nowMs: 0)
        #expect(registry.receive(request("b", task: "t2"), nowMs: 0) == .start(RunID(2)))
    }

    @Test func supersedingASharedRunAnswersEveryRequestOnIt() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a1", task: "t", query: "q1"), nowMs: 0)
        _ = registry.receive(request("a2", task: "t", query: "q1"), nowMs: 0)
        let action = registry.receive(request("b", task: "t", query: "q2"), nowMs: 0)
        #expect(action.runToStart == RunID(2))
        #expect(action.cancellation.runs == [RunID(1)])
        #expect(ids(action.cancellation.answers) == ["a1", "a2"])
        #expect(action.cancellation.answers.allSatisfy { $0.reason == .superseded(by: "b") })
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func cancelStopsTheTasksRunAndAnswersItsRequests() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        let cancellation = registry.cancel(taskId: "t")
        #expect(cancellation.runs == [RunID(1)])
        #expect(cancellation.answers == [TaskAnswer(request("a", task: "t").attached, .cancelled(.requested))])
        #expect(registry.cancel(taskId: "t") == .none)
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func cancellingASharedRunAnswersBothRequests() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        _ = registry.receive(request("b", task: "t"), nowMs: 0)
        let cancellation = registry.cancel(taskId: "t")
        #expect(cancellation.runs == [RunID(1)])
        #expect(ids(cancellation.answers) == ["a", "b"])
        #expect(cancellation.answers.allSatisfy { $0.reason == .cancelled(.requested) })
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func cancelForAnUnknownTaskDoesNothingAndIsNotRemembered() {
        var registry = TaskRegistry<String>()
        #expect(registry.cancel(taskId: "nobody") == .none)
        #expect(registry.receive(request("a", task: "nobody"), nowMs: 0) == .start(RunID(1)))
    }

    @Test func aRedeliveredRequestIsAnsweredOnce() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t", offset: 3), nowMs: 0)
        let first = request("a", task: "t", offset: 3).attached
        // The same message again, and a copy at another offset with other fields: both are duplicates.
        #expect(registry.receive(request("a", task: "t", offset: 3), nowMs: 0) == .duplicate(of: first))
        let copy = registry.receive(request("a", task: "other", query: "x", partition: 2, offset: 9), nowMs: 0)
        #expect(copy == .duplicate(of: first))
        #expect(copy.runToStart == nil && copy.cancellation.isEmpty)
        #expect(registry.runCount == 1)
        #expect(ids(registry.finished(RunID(1))) == ["a"])
    }

    @Test func aDuplicateOfASharedRequestIsRecognised() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        _ = registry.receive(request("b", task: "t", offset: 1), nowMs: 0)
        #expect(registry.receive(request("b", task: "t", offset: 1), nowMs: 0) == .duplicate(of: request("b", task: "t", offset: 1).attached))
        #expect(ids(registry.finished(RunID(1))) == ["a", "b"])
    }

    @Test func aDuplicateOfAnAnsweredRequestRunsAgain() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        _ = registry.finished(RunID(1))
        #expect(registry.receive(request("a", task: "t"), nowMs: 0) == .start(RunID(2)))
    }

    @Test func aRequestPastItsDeadlineOnArrivalIsExpiredWithoutARun() {
        var registry = TaskRegistry<String>()
        for (id, deadline) in [("late", Int64(999)), ("exact", 1000)] {
            let action = registry.receive(request(id, deadline: deadline), nowMs: 1000)
            let answer = TaskAnswer(request(id, deadline: deadline).attached, .expired)
            #expect(action == .answerWithoutRun(answer, cancelling: .none))
            #expect(action.cancellation == TaskCancellation(answers: [answer]))
            #expect(action.runToStart == nil)
        }
        #expect(registry.runCount == 0)
        #expect(registry.receive(request("on-time", deadline: 1001), nowMs: 1000) == .start(RunID(1)))
    }

    @Test func anExpiredArrivalStillSupersedesADifferentQuery() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t", query: "q1"), nowMs: 0)
        let action = registry.receive(request("b", task: "t", query: "q2", deadline: 5), nowMs: 10)
        #expect(action.runToStart == nil)
        #expect(action.cancellation.runs == [RunID(1)])
        #expect(action.cancellation.answers.map(\.reason) == [.superseded(by: "b"), .expired])
        #expect(action.cancellation.answers.map(\.requestId) == ["a", "b"])
        #expect(action.cancellation.answers.first?.supersededBy == "b")
        #expect(registry.runCount == 0)
    }

    @Test func anExpiredArrivalLeavesAnEqualQueryRunning() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t"), nowMs: 0)
        let action = registry.receive(request("b", task: "t", deadline: 5), nowMs: 10)
        #expect(action == .answerWithoutRun(TaskAnswer(request("b", task: "t", deadline: 5).attached, .expired), cancelling: .none))
        #expect(ids(registry.finished(RunID(1))) == ["a"])
    }

    @Test func expiringARunAnswersAllItsRequestsExpired() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t", deadline: 100), nowMs: 0)
        _ = registry.receive(request("b", task: "t"), nowMs: 0)
        let cancellation = registry.expire(RunID(1))
        #expect(cancellation.runs == [RunID(1)])
        #expect(ids(cancellation.answers) == ["a", "b"])
        #expect(cancellation.answers.allSatisfy { $0.reason == .expired })
        #expect(registry.expire(RunID(1)) == .none)
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func expireDueHonoursEachSharedRequestsDeadline() {
        var registry = TaskRegistry<String>()
        #expect(registry.nextDeadlineMs == nil)
        _ = registry.receive(request("a", task: "t", deadline: 200), nowMs: 0)
        _ = registry.receive(request("b", task: "t", deadline: 100), nowMs: 0)
        _ = registry.receive(request("other", task: "u", deadline: 300), nowMs: 0)
        #expect(registry.nextDeadlineMs == 100)
        #expect(registry.expireDue(nowMs: 99) == .none)

        let first = registry.expireDue(nowMs: 150)
        #expect(first.runs.isEmpty)  // "a" still needs run 1
        #expect(first.answers == [TaskAnswer(request("b", task: "t", deadline: 100).attached, .expired)])
        #expect(registry.nextDeadlineMs == 200)

        let second = registry.expireDue(nowMs: 300)
        #expect(second.runs == [RunID(1), RunID(2)])
        #expect(ids(second.answers) == ["a", "other"])
        #expect(registry.runCount == 0 && registry.nextDeadlineMs == nil)
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func revokingPartitionsCancelsOnlyRunsLeftWithoutRequests() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("p0", task: "t1", partition: 0), nowMs: 0)
        _ = registry.receive(request("p1", task: "t2", partition: 1), nowMs: 0)
        // A run shared across partitions 0 and 1.
        _ = registry.receive(request("s0", task: "t3", partition: 0), nowMs: 0)
        _ = registry.receive(request("s1", task: "t3", partition: 1), nowMs: 0)

        let revoked: Set = [KafkaTopicPartition(topic: topic, partition: 0)]
        let cancellation = registry.cancel(partitions: revoked)
        #expect(cancellation.runs == [RunID(1)])
        #expect(ids(cancellation.answers) == ["p0", "s0"])
        #expect(cancellation.answers.allSatisfy { $0.reason == .cancelled(.partitionRevoked) })
        #expect(registry.runCount == 2)
        #expect(ids(registry.finished(RunID(2))) == ["p1"])
        #expect(registry.cancel(partitions: revoked) == .none)
        #expect(ids(registry.finished(RunID(3))) == ["s1"])
        #expect(registry.finished(RunID(1)).isEmpty)
    }

    @Test func shutdownCancelsEverythingOnce() {
        var registry = TaskRegistry<String>()
        _ = registry.receive(request("a", task: "t1"), nowMs: 0)
        _ = registry.receive(request("b", task: "t1"), nowMs: 0)
        _ = registry.receive(request("c", task: "t2", partition: 3), nowMs: 0)
        let cancellation = registry.cancelForShutdown()
        #expect(cancellation.runs == [RunID(1), RunID(2)])
        #expect(ids(cancellation.answers) == ["a", "b", "c"])
        #expect(cancellation.answers.allSatisfy { $0.reason == .cancelled(.shutdown) })
        #expect(registry.cancelForShutdown() == .none)
        #expect(registry.finished(RunID(1)).isEmpty)
        #expect(registry.finished(RunID(2)).isEmpty)

        // Read after shutdown began: answered at once, no run.
        let late = registry.receive(request("d", task: "t1"), nowMs: 0)
        #expect(late == .answerWithoutRun(TaskAnswer(request("d", task: "t1").attached, .cancelled(.shutdown)), cancelling: .none))
        #expect(registry.runCount == 0)
    }
}

@Suite("Coordination: terminal reasons")
struct CoordinationTerminalStatusTests {
    /// Each reason a request is interrupted has exactly one published code.
    @Test func everyInterruptionHasExactlyOneCode() {
        #expect(CancelReason.allCases.map { Interruption.cancelled($0).code.rawValue } == ["cancel_requested", "shutdown", "partition_revoked"])
        #expect(Interruption.superseded(by: "b").code == .superseded)
        #expect(Interruption.expired.code == .deadlineExceeded)
    }
}

extension TaskCancellation {
    /// Nothing to cancel and nobody to answer.
    var isEmpty: Bool { runs.isEmpty && answers.isEmpty }
}
