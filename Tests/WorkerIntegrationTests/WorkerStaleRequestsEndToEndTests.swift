import FeatureQuerySupport
import Kafka
import SampleFeatureServer
import ServiceLifecycle
import Testing

import QueryWorker
import WorkerTestSupport

/// Issue 16, item 6: a request older than `maxRequestAge` by its Kafka timestamp is answered `expired`
/// (`request_too_old`) without a query, also when a new consumer group replays the topic from its earliest offset.
@Suite("Stale requests end to end")
struct WorkerStaleRequestsEndToEndTests {
    /// Two hours old: past the default bound (15 minutes) by far.
    static let oldTimestamp = WallClock.nowMilliseconds() - 2 * 3_600_000

    @Test func oldMessagesAreAnsweredExpiredWithoutAQueryAlsoWhenANewGroupReplaysTheTopic() async throws {
        let harness = try await WorkerHarness()
        let old = ["old-1", "old-2", "old-3"]
        let fresh = ["fresh-1", "fresh-2"]
        for id in old {
            let message = KafkaProducerMessage(
                topic: harness.settings.topics.requests, key: id,
                value: WorkerHarness.request(id, url: harness.url(.cities)), timestampMs: Self.oldTimestamp)
            _ = try await harness.producer.send(message)
        }
        for id in fresh { try await harness.send(id, WorkerHarness.request(id, url: harness.url(.states))) }

        let first = try await harness.outcomesByRequest(old.count + fresh.count)
        Self.expectAnsweredOnce(first, old: old, fresh: fresh)

        // A new group on the same topic starts from the earliest offset (the worker's default reset) and
        // replays every message: the fresh ones run again, the old ones are again answered without a query.
        var replaySettings = harness.settings
        replaySettings.groupID = "replay-\(harness.settings.groupID)"
        replaySettings.workerID = "worker-replay"
        let replay = try WorkerAssembly(settings: replaySettings, logger: WorkerHarness.logger)
            .serviceGroup(handlesSignals: false, logger: WorkerHarness.logger)
        let running = Task { try await replay.run() }
        let second = try await harness.outcomesByRequest(old.count + fresh.count)
        Self.expectAnsweredOnce(second, old: old, fresh: fresh)
        #expect(second.values.joined().allSatisfy { $0["worker"] == .string("worker-replay") })

        #expect(harness.server.statistics.queries(.cities) == 0, "no request older than maxRequestAge was queried")
        #expect(harness.server.statistics.queries(.states) > 0, "the fresh requests ran")
        await replay.triggerGracefulShutdown()
        try await running.value
        try await harness.stop()
    }

    /// Every request answered exactly once: the old ones `expired` with `request_too_old` and their age, the
    /// fresh ones succeeded.
    static func expectAnsweredOnce(_ outcomes: [String: [ParsedJSON]], old: [String], fresh: [String]) {
        #expect(Set(outcomes.keys) == Set(old + fresh))
        for id in old {
            #expect(outcomes[id]?.count == 1)
            #expect(outcomes[id]?.first?.status == "expired")
            #expect(outcomes[id]?.first?.errorCode == "request_too_old")
            if case .number(let age)? = outcomes[id]?.first?["error"]?["details"]?["ageMs"] {
                #expect(age >= 2 * 3_600_000)
            } else {
                Issue.record("\(id): the error names no ageMs")
            }
        }
        for id in fresh {
            #expect(outcomes[id]?.count == 1)
            #expect(outcomes[id]?.first?.status == "succeeded")
        }
    }
}
