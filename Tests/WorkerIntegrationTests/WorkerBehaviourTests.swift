import FeatureGeometry
import Kafka
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

@Suite("Worker behaviour end to end")
struct WorkerBehaviourTests {
    @Test func identicalRequestsOnOneTaskShareOneRun() async throws {
        let harness = try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: 1_500), pathContains: "MapServer/2/query")])
        let query = #"{"where":"POP2000 > 1000000"}"#
        try await harness.send("t", WorkerHarness.request("first", task: "t", url: harness.url(.states), query: query))
        #expect(await harness.server.waitUntil { !$0.recentQueries(.states).isEmpty })
        try await harness.send("t", WorkerHarness.request("second", task: "t", url: harness.url(.states), query: query))
        let outcomes = try await harness.outcomesByRequest(2)
        #expect(outcomes["first"]?.first?.status == "succeeded")
        #expect(outcomes["second"]?.first?.status == "succeeded")
        // One run: the ids and count queries of the first request only.
        #expect(harness.server.statistics.queries(.states) == 2)
        try await harness.stop()
    }

    @Test func aCancelMessageCancelsTheTasksRequest() async throws {
        let harness = try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/query")])
        try await harness.send("job", WorkerHarness.request("r1", task: "job", url: harness.url(.cities)))
        #expect(await harness.server.waitUntil { !$0.recentQueries(.cities).isEmpty })
        try await harness.send("job", #"{"taskId":"job","cancel":true}"#)
        let outcomes = try await harness.outcomesByRequest(1)
        #expect(outcomes["r1"]?.first?.status == "cancelled")
        #expect(outcomes["r1"]?.first?.errorCode == "cancel_requested")
        #expect(await harness.server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 })
        try await harness.stop()
    }

    @Test func deadlinesExpireOnArrivalAndWhileRunning() async throws {
        let harness = try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "MapServer/3/query")])
        try await harness.send("late", WorkerHarness.request(
            "late", url: harness.url(.cities), extra: #","deadline":"2020-01-01T00:00:00Z""#))
        try await harness.send("slow", WorkerHarness.request("slow", url: harness.url(.counties), extra: #","timeoutMs":500"#))
        let outcomes = try await harness.outcomesByRequest(2)
        #expect(outcomes["late"]?.first?.status == "expired")
        #expect(outcomes["slow"]?.first?.status == "expired")
        #expect(outcomes["slow"]?.first?.errorCode == "deadline_exceeded")
        #expect(harness.server.statistics.queries(.cities) == 0, "nothing is queried for a request already expired")
        try await harness.stop()
    }

    @Test func aRequestWithoutADeadlineGetsTheRequestTimeout() async throws {
        let harness = try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "MapServer/2/query")]) {
            $0.timeouts.request = .milliseconds(1_500)
        }
        try await harness.send("open", WorkerHarness.request("open", url: harness.url(.states)))
        let outcomes = try await harness.outcomesByRequest(1)
        #expect(outcomes["open"]?.first?.status == "expired")
        #expect(outcomes["open"]?.first?.errorCode == "deadline_exceeded")
        // On a loaded machine the deadline can pass before the query is sent; a query that was sent is aborted.
        if !harness.server.statistics.recentQueries(.states).isEmpty {
            #expect(await harness.server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 }, "the expired run's transfers are aborted")
        }
        try await harness.stop()
    }

    @Test func aThousandMalformedMessagesGetAThousandRejectionsAndNothingSticks() async throws {
        let harness = try await WorkerHarness()
        let bad: [String] = [
            "not json", "[]", "{}", #"{"requestId":""}"#, #"{"requestId":"x","targets":[]}"#,
            #"{"requestId":"x","targets":[{"type":"arcgis","url":"ftp://h/x/MapServer/0"}],"query":{}}"#,
            #"{"requestId":"x","targets":[{"type":"arcgis","url":"http://127.0.0.1/a/MapServer/0"}],"query":{"where":"A ="}}"#,
            #"{"requestId":"x","surprise":1,"targets":[{"type":"arcgis","url":"http://127.0.0.1/a/MapServer/0"}],"query":{}}"#,
        ]
        let messages = (0..<1_000).map { index in
            KafkaProducerMessage(topic: harness.settings.topics.requests, key: "k\(index % 37)", value: bad[index % bad.count])
        }
        for result in await harness.producer.send(messages) { _ = try result.get() }
        try await harness.send("ok", WorkerHarness.request("ok", url: harness.url(.states), query: #"{"result":"count"}"#))
        let outcomes = try await harness.outcomes(1_001)
        #expect(outcomes.filter { $0.status == "rejected" }.count == 1_000)
        #expect(outcomes.contains { $0.status == "succeeded" }, "a good request after 1,000 bad ones is still answered")
        try await harness.stop()
    }
}
