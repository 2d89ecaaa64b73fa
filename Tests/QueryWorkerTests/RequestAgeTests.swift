import Kafka
@testable import QueryWorker
import Testing
@testable import RequestContract

/// Issue 16, item 6: the age bound on requests (``RequestAge``) and its setting, `maxRequestAge`.
@Suite struct RequestAgeTests {
    @Test func aMessageOlderThanTheLimitIsTooOldAndOneExactlyAtTheLimitIsNot() {
        #expect(RequestAge.tooOld(timestampMs: 1_000, nowMs: 61_000, limitMs: 60_000) == nil)
        #expect(RequestAge.tooOld(timestampMs: 999, nowMs: 61_000, limitMs: 60_000) == RequestAge(ageMs: 60_001, limitMs: 60_000))
        #expect(RequestAge.tooOld(timestampMs: 70_000, nowMs: 61_000, limitMs: 60_000) == nil, "a clock ahead is not old")
    }

    @Test func aMessageWithoutATimestampOrWithoutABoundIsNotJudged() {
        #expect(RequestAge.tooOld(timestampMs: nil, nowMs: 10_000_000, limitMs: 60_000) == nil)
        #expect(RequestAge.tooOld(timestampMs: -1, nowMs: 10_000_000, limitMs: 60_000) == nil)
        #expect(RequestAge.tooOld(timestampMs: 0, nowMs: 10_000_000, limitMs: 0) == nil)
        #expect(RequestAge.tooOld(timestampMs: 0, nowMs: 10_000_000, limitMs: 60_000) != nil, "the epoch is a timestamp")
    }

    @Test func theSettingDefaultsToFifteenMinutesAcceptsZeroAndRefusesNonsense() throws {
        #expect(try WorkerSettings.load(environment: [:]).settings.timeouts.maxRequestAge == .seconds(900))
        let off = try WorkerSettings.load(environment: ["QUERY_WORKER_MAX_REQUEST_AGE": "0s"]).settings
        #expect(off.timeouts.maxRequestAge == .zero)
        let flag = try WorkerSettings.load(flags: ["maxRequestAge": "2m"], environment: [:]).settings
        #expect(flag.timeouts.maxRequestAge == .seconds(120))
        #expect(flag.logMetadata["maxRequestAge"] != nil, "the start-up line and status page show it")
        #expect {
            _ = try WorkerSettings.load(flags: ["maxRequestAge": "soon"], environment: [:])
        } throws: { error in (error as? SettingsError)?.key == "maxRequestAge" }
    }

    @Test func aTooOldRequestIsAnsweredWithoutARunLeavesItsTasksRunAloneAndIsCommitted() {
        let partition = KafkaTopicPartition(topic: "requests", partition: 0)
        func at(_ offset: Int64) -> MessagePosition { MessagePosition(partition, offset: offset) }
        func source(_ offset: Int64) -> MessageSource { MessageSource(topic: "requests", partition: 0, offset: offset, key: nil) }
        func request(_ id: String, work: Int) -> QueryRequest {
            QueryRequest(
                requestId: id, taskId: "t", receivedAt: 0,
                targets: [.arcgis(url: "https://gis.example.org/a/MapServer", layers: [0])], query: QuerySpec(maxFeatures: work))
        }
        var machine = WorkerCore.StateMachine(gate: InFlightGate(maxInFlight: 10, lowMark: nil))
        machine.assign([partition])
        let old = machine.receive(.tooOld(request("old", work: 1), source(0), RequestAge(ageMs: 2, limitMs: 1)), at: at(0), nowMs: 0)
        #expect(old.0 == .answeredWithoutRun)
        #expect(old.1.start == nil && old.1.answers == ["old: request_too_old"])
        _ = machine.queued(at(0))
        #expect(machine.delivered(at(0)).store == [partition: 1], "its offset is committed like any other outcome")

        let current = machine.receive(.query(request("current", work: 2), source(1)), at: at(1), nowMs: 0)
        #expect(current.0 == .started(RunID(1)))
        let stale = machine.receive(.tooOld(request("stale", work: 3), source(2), RequestAge(ageMs: 2, limitMs: 1)), at: at(2), nowMs: 0)
        #expect(stale.1.cancel.isEmpty && stale.1.start == nil, "a stale request does not supersede its task's run")
        #expect(stale.1.answers == ["stale: request_too_old"])
        #expect(Interruption.tooOld(RequestAge(ageMs: 2, limitMs: 1)).code == .requestTooOld)
    }
}
