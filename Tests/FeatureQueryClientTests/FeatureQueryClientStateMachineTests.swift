import Testing

@testable import FeatureQueryClient

/// The client's pending calls without I/O: waiters are numbers, payloads strings, outcomes JSON texts.
@Suite("FeatureQueryClient.StateMachine")
struct FeatureQueryClientStateMachineTests {
    typealias Machine = FeatureQueryClient.StateMachine<Int, String>

    /// Published requestIds and resumed waiters of some effects.
    struct Seen {
        var published: [String] = []
        var resumed: [Int: Result<QueryOutcome, FeatureQueryError>] = [:]

        init(_ effects: [Machine.Effect]) {
            for effect in effects {
                switch effect {
                case .publish(let id, let payload):
                    #expect(payload == "job-\(id)")
                    published.append(id)
                case .resume(let waiter, let result):
                    #expect(resumed[waiter] == nil, "waiter \(waiter) resumed twice")
                    resumed[waiter] = result
                }
            }
        }

        func status(_ waiter: Int) -> QueryOutcome.Status? { try? resumed[waiter]?.get().status }
        func errorCode(_ waiter: Int) -> FeatureQueryError.Code? {
            if case .failure(let error)? = resumed[waiter] { error.code } else { nil }
        }
    }

    static func submit(_ machine: inout Machine, _ id: String, task: String, waiter: Int) -> Seen {
        Seen(machine.submit(requestId: id, taskId: task, waiter: waiter, payload: "job-\(id)"))
    }

    static func result(_ id: String, ids: [Int], part: Int = 1, parts: Int = 1) -> [UInt8] {
        let idList = ids.map(String.init).joined(separator: ",")
        return Array(
            #"{"requestId":"\#(id)","taskId":"t","status":"succeeded","part":\#(part),"parts":\#(parts),"finishedAt":"2026-01-01T00:00:00Z","layers":[{"url":"http://h/FeatureServer/0","status":"succeeded","count":4,"complete":true,"objectIds":[\#(idList)]}]}"#
                .utf8)
    }

    @Test func nothingIsPublishedBeforeTheReaderHasItsStartThenEverythingQueuedIs() {
        var machine = Machine(maxInFlight: 10)
        #expect(Self.submit(&machine, "a", task: "a", waiter: 1).published.isEmpty)
        #expect(Self.submit(&machine, "b", task: "b", waiter: 2).published.isEmpty)
        #expect(Seen(machine.readerStarted()).published == ["a", "b"])
        #expect(Self.submit(&machine, "c", task: "c", waiter: 3).published == ["c"])
    }

    @Test func backPressureHoldsCallsBeyondTheLimitUntilOneEnds() {
        var machine = Machine(maxInFlight: 2)
        _ = machine.readerStarted()
        #expect(Self.submit(&machine, "a", task: "a", waiter: 1).published == ["a"])
        #expect(Self.submit(&machine, "b", task: "b", waiter: 2).published == ["b"])
        #expect(Self.submit(&machine, "c", task: "c", waiter: 3).published.isEmpty)
        let seen = Seen(machine.received(requestIdHeader: "a", value: Self.result("a", ids: [1])))
        #expect(seen.status(1) == .succeeded)
        #expect(seen.published == ["c"])
        #expect(machine.pendingCount == 2)
    }

    @Test func aNewerJobSupersedesAQueuedOneAtOnceAndAPublishedOneWhenTheWorkerSaysSo() throws {
        var machine = Machine(maxInFlight: 1)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "busy", task: "other", waiter: 9)
        _ = Self.submit(&machine, "a1", task: "t", waiter: 1)
        let seen = Self.submit(&machine, "a2", task: "t", waiter: 2)
        #expect(seen.status(1) == .superseded)
        #expect(try seen.resumed[1]?.get().supersededBy == "a2")
        #expect(seen.published.isEmpty, "a1 is never published")
        // The worker's own supersession of a published job arrives as an error outcome.
        let done = Seen(machine.received(requestIdHeader: "busy", value: Self.result("busy", ids: [])))
        #expect(done.published == ["a2"])
        let superseded = Array(
            #"{"requestId":"a2","taskId":"t","status":"superseded","supersededBy":"a3","error":{"code":"superseded","message":"replaced","retryable":false}}"#
                .utf8)
        let end = Seen(machine.received(requestIdHeader: "a2", value: superseded))
        #expect(end.status(2) == .superseded)
        #expect(try end.resumed[2]?.get().error?.code.rawValue == "superseded")
        #expect(try end.resumed[2]?.get().error?.isRetryable == false)
    }

    @Test func aSplitResultIsReassembledFromPartsInAnyOrderAndDuplicatesAreIgnored() throws {
        var machine = Machine(maxInFlight: 10)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "s", task: "t", waiter: 1)
        #expect(Seen(machine.received(requestIdHeader: "s", value: Self.result("s", ids: [5, 6], part: 3, parts: 3))).resumed.isEmpty)
        #expect(Seen(machine.received(requestIdHeader: "s", value: Self.result("s", ids: [1, 2], part: 1, parts: 3))).resumed.isEmpty)
        #expect(Seen(machine.received(requestIdHeader: "s", value: Self.result("s", ids: [1, 2], part: 1, parts: 3))).resumed.isEmpty)
        let seen = Seen(machine.received(requestIdHeader: "s", value: Self.result("s", ids: [3, 4], part: 2, parts: 3)))
        let outcome = try #require(try seen.resumed[1]?.get())
        #expect(outcome.layers.first?.objectIds == [1, 2, 3, 4, 5, 6])
        #expect(outcome.messages.count == 3)
        // A duplicate of the whole outcome, after it was delivered, resumes nothing (the waiter is gone).
        #expect(Seen(machine.received(requestIdHeader: "s", value: Self.result("s", ids: [5, 6], part: 3, parts: 3))).resumed.isEmpty)
        #expect(Seen(machine.received(requestIdHeader: nil, value: Self.result("s", ids: [1]))).resumed.isEmpty)
    }

    @Test func outcomesOfUnknownOrUnpublishedRequestsAreIgnored() {
        var machine = Machine(maxInFlight: 1)
        #expect(Seen(machine.received(requestIdHeader: "stranger", value: Self.result("stranger", ids: [1]))).resumed.isEmpty)
        _ = Self.submit(&machine, "q", task: "q", waiter: 1)
        // Not published yet (the reader has no start): an outcome naming it is an older request's.
        #expect(Seen(machine.received(requestIdHeader: "q", value: Self.result("q", ids: [1]))).resumed.isEmpty)
        #expect(machine.pendingCount == 1)
    }

    @Test func timeoutAndCancellationEndOnlyTheirCallAndFreeTheSlot() {
        var machine = Machine(maxInFlight: 1)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "a", task: "a", waiter: 1)
        _ = Self.submit(&machine, "b", task: "b", waiter: 2)
        _ = Self.submit(&machine, "c", task: "c", waiter: 3)
        let timedOut = Seen(machine.timedOut(requestId: "a"))
        #expect(timedOut.errorCode(1) == .timeout)
        #expect(timedOut.published == ["b"])
        let cancelled = Seen(machine.callCancelled(requestId: "b"))
        #expect(cancelled.errorCode(2) == .callCancelled)
        #expect(cancelled.published == ["c"])
        // Late events for ended calls do nothing.
        #expect(Seen(machine.timedOut(requestId: "b")).resumed.isEmpty)
        #expect(Seen(machine.received(requestIdHeader: "a", value: Self.result("a", ids: [1]))).resumed.isEmpty)
        #expect(machine.pendingCount == 1)
    }

    @Test func aDuplicateRequestIdIsRefusedAndShutdownEndsEveryCall() {
        var machine = Machine(maxInFlight: 1)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "a", task: "a", waiter: 1)
        #expect(Self.submit(&machine, "a", task: "a", waiter: 2).errorCode(2) == .duplicateRequest)
        _ = Self.submit(&machine, "b", task: "b", waiter: 3)
        let stopped = Seen(machine.readerStopped(FeatureQueryError(.shutdown, "bye", isRetryable: true)))
        #expect(stopped.errorCode(1) == .shutdown)
        #expect(stopped.errorCode(3) == .shutdown)
        #expect(Self.submit(&machine, "c", task: "c", waiter: 4).errorCode(4) == .shutdown)
        #expect(machine.pendingCount == 0)
    }

    @Test func aPublishFailureEndsTheCallWithTheKafkaError() {
        var machine = Machine(maxInFlight: 1)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "a", task: "a", waiter: 1)
        _ = Self.submit(&machine, "b", task: "b", waiter: 2)
        let seen = Seen(machine.publishFailed(requestId: "a", FeatureQueryError(.kafka, "no broker", isRetryable: true)))
        #expect(seen.errorCode(1) == .kafka)
        #expect(seen.published == ["b"])
    }
}

extension FeatureQueryClientStateMachineTests {
    @Test func anOutcomeWithoutTheHeaderIsMatchedByItsRequestIdAndAStrangersIsDropped() throws {
        var machine = Machine(maxInFlight: 4)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "mine", task: "t", waiter: 1)
        #expect(Seen(machine.received(requestIdHeader: nil, value: Self.result("theirs", ids: [7]))).resumed.isEmpty)
        let seen = Seen(machine.received(requestIdHeader: nil, value: Self.result("mine", ids: [8])))
        #expect(try seen.resumed[1]?.get().layers.first?.objectIds == [8])
        #expect(machine.pendingCount == 0)
    }

    @Test func anOutcomeThatIsNotTheContractsJSONIsIgnoredAndOneWithAnUnknownStatusFailsTheCall() {
        var machine = Machine(maxInFlight: 4)
        _ = machine.readerStarted()
        _ = Self.submit(&machine, "a", task: "t", waiter: 1)
        #expect(Seen(machine.received(requestIdHeader: "a", value: Array("not json".utf8))).resumed.isEmpty)
        let odd = Array(#"{"requestId":"a","status":"pondering"}"#.utf8)
        #expect(Seen(machine.received(requestIdHeader: "a", value: odd)).errorCode(1) == .malformedOutcome)
    }
}
