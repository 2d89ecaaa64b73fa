import EngineExecution
import FeatureQuerySupport
import Metrics
import MetricsTestKit
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// The worker's metrics end to end: one worker made with `TestMetrics` bound as the task's metrics factory (the
/// assembly's default path, `MetricsSystem.factory`), a known request mix through the embedded Kafka cluster
/// and the sample server, and the counters checked against the outcomes read back.
@Suite("Worker metrics end to end")
struct WorkerMetricsEndToEndTests {
    @Test func aKnownRequestMixGivesExactCounts() async throws {
        let metrics = TestMetrics()
        let harness = try await withMetricsFactory(metrics) {
            try await WorkerHarness(
                faults: [
                    FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query"),
                    FaultRule(.latency(milliseconds: 1_500), pathContains: "USA/MapServer/3/query"),
                ])
        }
        let server = harness.server
        // The states layer's first query answers 503 with `Retry-After: 1`; the retry succeeds.
        let statesPath = String(server.queryURL(.states).dropFirst(server.baseURL.count))
        server.addFault(FaultRule(.http503(retryAfterSeconds: 1), pathContains: statesPath, trigger: .first(1)))

        // a: slow, superseded by b on the same task; c: the 503 then its retry; e slow, f the same work for the
        // same task (it shares e's run); one message that is no JSON.
        try await harness.send("t", WorkerHarness.request(
            "a", task: "t", url: harness.url(.legacyParcels), query: #"{"where":"UseType = 'Residential'"}"#))
        #expect(await server.waitUntil { !$0.recentQueries(.legacyParcels).isEmpty })
        try await harness.send("t", WorkerHarness.request("b", task: "t", url: harness.url(.cities), query: #"{"result":"count"}"#))
        try await harness.send("c", WorkerHarness.request(
            "c", url: harness.url(.states), query: #"{"where":"POP2000 > 1000000","result":"count"}"#))
        let counties = #"{"where":"1=1","result":"count"}"#
        try await harness.send("u", WorkerHarness.request("e", task: "u", url: harness.url(.counties), query: counties))
        #expect(await server.waitUntil { !$0.recentQueries(.counties).isEmpty })
        try await harness.send("u", WorkerHarness.request("f", task: "u", url: harness.url(.counties), query: counties))
        try await harness.send(nil, "this is not JSON")

        let outcomes = try await harness.outcomesByRequest(6).compactMapValues(\.first)
        #expect(outcomes["a"]?.status == "superseded")
        #expect(outcomes["b"]?.status == "succeeded")
        #expect(outcomes["c"]?.status == "succeeded")
        #expect(outcomes["e"]?.status == "succeeded")
        #expect(outcomes["f"]?.status == "succeeded")
        #expect(outcomes[""]?.status == "rejected")
        // The outcome counter moves when the delivery report is back, which may follow the reader's copy.
        #expect(await Self.eventually { metrics.counterTotal(label: MetricCatalog.outcomes.name) == 6 })
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 }, "a's transfer was aborted")

        // Requests: every message read, each outcome once under its status and code.
        #expect(metrics.counterTotal(label: MetricCatalog.requestsReceived.name) == 6)
        for (status, code) in [("superseded", outcomes["a"]?.errorCode ?? "?"), ("succeeded", "none"), ("rejected", "invalid_json")] {
            let expected: Int64 = status == "succeeded" ? 4 : 1
            #expect(Self.outcomes(metrics, status, code) == expected, "\(status)/\(code)")
        }
        #expect(outcomes["a"]?.errorCode == "superseded")
        #expect(metrics.counterTotal(label: MetricCatalog.supersessions.name) == 1)
        #expect(metrics.counterTotal(label: MetricCatalog.shares.name) == 1)
        let succeeded = try metrics.expectTimer(MetricCatalog.requestDuration.name, [("status", "succeeded")]).values
        #expect(succeeded.count == 4)
        // c waited out the 1 s Retry-After: its duration, received to outcome, is at least that.
        #expect((succeeded.max() ?? 0) >= 1_000_000_000)
        #expect(try metrics.expectTimer(MetricCatalog.requestDuration.name, [("status", "superseded")]).values.count == 1)
        #expect(try metrics.expectTimer(MetricCatalog.requestDuration.name, [("status", "rejected")]).values.count == 1)

        // What the worker holds once everything is answered: nothing in flight, three partitions, intake open.
        #expect(await Self.eventually { (try? metrics.expectGauge(MetricCatalog.requestsInFlight.name).lastValue) == 0 })
        #expect(try metrics.expectGauge(MetricCatalog.runsInFlight.name).lastValue == 0)
        #expect(try metrics.expectGauge(MetricCatalog.assignedPartitions.name).lastValue == 3)
        #expect(try metrics.expectGauge(MetricCatalog.intakePaused.name).lastValue == 0)
        #expect(metrics.counterTotal(label: MetricCatalog.rebalances.name, dimensions: [("event", "assigned")]) >= 1)
        #expect(metrics.counterTotal(label: MetricCatalog.rebalances.name, dimensions: [("event", "lost")]) == 0)
        #expect(metrics.counterTotal(label: MetricCatalog.outcomeDeliveryFailures.name) == 0)

        // HTTP: one 5xx, its retry after the service's Retry-After; every other exchange the server saw was a
        // 2xx, but a's, which was aborted (a cancelled transfer is not counted).
        let host = HostMetrics.hostLabel(origin: server.baseURL)
        let statistics = server.statistics
        #expect(Self.http(metrics, host, "5xx") == 1)
        #expect(Self.http(metrics, host, "2xx") == Int64(statistics.requests - 1 - statistics.aborted))
        #expect(Self.http(metrics, host, "error") == 0)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetries.name, dimensions: [("host", host)]) == 1)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetryAfterWaits.name, dimensions: [("host", host)]) == 1)
        #expect(metrics.counterTotal(label: EngineMetrics.httpRetryAfterWaitSeconds.name, dimensions: [("host", host)]) == 1)
        // Each metadata miss is one load from the server.
        #expect(Self.cache(metrics, "miss") == Int64(statistics.metadataRequests))
        #expect(Self.cache(metrics, "miss") >= 3)

        #expect(MetricsCatalogCheck.mismatches(metrics).isEmpty, "\(MetricsCatalogCheck.mismatches(metrics))")
        try await harness.stop()
    }

    static func outcomes(_ metrics: TestMetrics, _ status: String, _ code: String) -> Int64 {
        metrics.counterTotal(label: MetricCatalog.outcomes.name, dimensions: [("status", status), ("code", code)])
    }

    static func http(_ metrics: TestMetrics, _ host: String, _ statusClass: String) -> Int64 {
        metrics.counterTotal(label: EngineMetrics.httpRequests.name, dimensions: [("host", host), ("status_class", statusClass)])
    }

    static func cache(_ metrics: TestMetrics, _ result: String) -> Int64 {
        metrics.counterTotal(label: EngineMetrics.metadataCacheRequests.name, dimensions: [("result", result)])
    }

    /// Polls `condition` for up to `timeout`.
    static func eventually(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
        let start = ContinuousClock.now
        while !condition() {
            guard ContinuousClock.now - start < timeout else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
