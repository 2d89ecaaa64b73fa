import FeatureQuerySupport
@testable import QueryWorker
import Prometheus
import Testing
@testable import WorkerOperations

/// The endpoint's pieces without a worker: the exposition's HELP lines and order, health answers, the recent
/// activity's ring and the page's escaping.
struct OperationsRenderingTests {
    @Test func expositionGetsHelpLinesAndSortedFamilies() {
        let text = """
            # TYPE query_worker_requests_in_flight gauge
            query_worker_requests_in_flight 3.0
            # HELP own_total already documented
            # TYPE own_total counter
            own_total 1
            # TYPE query_worker_outcomes_total counter
            query_worker_outcomes_total{status="failed",code="transport"} 2

            """
        let help = MetricHelp(["query_worker_outcomes_total": "Outcomes \\ by status\nand code.", "own_total": "not used"])
        let annotated = MetricsExposition.annotate(text, help: help)
        #expect(annotated == """
            # HELP own_total already documented
            # TYPE own_total counter
            own_total 1
            # HELP query_worker_outcomes_total Outcomes \\\\ by status\\nand code.
            # TYPE query_worker_outcomes_total counter
            query_worker_outcomes_total{status="failed",code="transport"} 2
            # TYPE query_worker_requests_in_flight gauge
            query_worker_requests_in_flight 3.0

            """)
        #expect(MetricHelp.worker["query_worker_consumer_lag"] != nil)
        #expect(MetricHelp.worker.entries.count == MetricCatalog.all.count)
    }

    @Test func healthFollowsPhaseAndKafka() {
        var status = Self.status()
        #expect(HealthCheck.live(status).statusCode == 200)
        #expect(HealthCheck.ready(status).statusCode == 200)
        status.kafka.joinedGroup = false
        #expect(HealthCheck.live(status).statusCode == 200, "a worker without Kafka stays live")
        let ready = HealthCheck.ready(status)
        #expect(ready.statusCode == 503)
        #expect(ready.body == #"{"status":"unavailable","phase":"running","reason":"the consumer has not joined its group"}"# + "\n")
        status.phase = .stopped
        #expect(HealthCheck.live(status).statusCode == 503)
        status.phase = .draining
        #expect(HealthCheck.live(status).statusCode == 200)
        #expect(HealthCheck.ready(status).statusCode == 503, "a draining worker takes no new work")
    }

    @Test func recentActivityKeepsTenMinutesAndTheLastErrors() {
        let activity = RecentActivity()
        let start: Int64 = 1_700_000_000_000
        for second in 0..<700 {
            let failed = second % 10 == 0
            activity.record(
                status: failed ? "failed" : "succeeded", code: failed ? "transport" : "none",
                error: failed ? WorkerStatus.RecentError(code: "transport", message: "m\(second)", requestId: "r\(second)", atMs: start + Int64(second) * 1_000) : nil,
                nowMs: start + Int64(second) * 1_000)
        }
        let snapshot = activity.snapshot(nowMs: start + 699_000)
        #expect(snapshot.activity.count == RecentActivity.bucketCount)
        #expect(snapshot.activity.last?.startMs == (start + 699_000) / 10_000 * 10_000)
        #expect(snapshot.activity.allSatisfy { $0.answered == 10 && $0.errors == 1 })
        #expect(snapshot.outcomes.map(\.count) == [70, 630])
        #expect(snapshot.errors.count == RecentActivity.errorCapacity)
        #expect(snapshot.errors.first?.requestId == "r690", "newest first")
        #expect(snapshot.errors.last?.requestId == "r500")
        // Ten idle minutes later, the chart is empty; the totals stay.
        let later = activity.snapshot(nowMs: start + 1_400_000)
        #expect(later.activity.allSatisfy { $0.answered == 0 })
        #expect(later.outcomes.map(\.count) == [70, 630])
    }

    @Test func pageEscapesWhatItShows() {
        var status = Self.status()
        status.recentErrors = [WorkerStatus.RecentError(code: "invalid_json", message: "<script>alert(1)</script>", requestId: "\"x\"", atMs: 0)]
        let html = StatusPage(status: status).html
        #expect(!html.contains("<script>"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains(#"data-request-id="&quot;x&quot;""#))
        #expect(StatusPageDOM(html: html).rows("recent-errors").count == 1)
    }

    static func status() -> WorkerStatus {
        WorkerStatus(
            workerID: "w", groupID: "g", phase: .running, capturedAtMs: 0, partitions: [], inFlight: [], runs: 0,
            intakePaused: false, answered: 0, outcomes: [], recentErrors: [], activity: [],
            kafka: WorkerStatus.KafkaHealth(joinedGroup: true, connected: true, producerCanDeliver: true), settings: [])
    }
}

/// The server alone (no worker): a taken port ends `run()` with the bind error, which stops the worker's group.
struct OperationsServerBindTests {
    @Test func aTakenPortEndsRunWithAnError() async throws {
        let status: @Sendable () -> WorkerStatus = { OperationsRenderingTests.status() }
        let first = OperationsServer(host: "127.0.0.1", port: 0, status: status, registry: .init(), logger: OperationsHarness.logger)
        let running = Task { try await first.run() }
        let port = try await first.boundPort()
        let second = OperationsServer(host: "127.0.0.1", port: port, status: status, registry: .init(), logger: OperationsHarness.logger)
        await #expect(throws: (any Error).self) { try await second.run() }
        running.cancel()
        _ = await running.result
    }
}
