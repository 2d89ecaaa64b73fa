import ChildProcessFixture
import Foundation
import QueryWorker
import SampleFeatureServer
import Testing
import ServiceLifecycle

/// The operations endpoint of a running worker over loopback: health, readiness, the exposition and the page.
@Suite(.serialized)
struct OperationsEndpointTests {
    @Test func healthMetricsAndPageOfARunningWorker() async throws {
        // The drain (held by the slow request) lasts the shutdown timeout: 10 s, not the harness's 2, so that the
        // draining checks below see the worker draining however long a loaded machine takes to ask (with 2 s, a
        // live check once came after the worker had stopped).
        let harness = try await OperationsHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query")],
            configure: { $0.timeouts.shutdown = .seconds(10) })
        let ready = try await harness.waitForEndpoint("/health/ready", status: 200)
        #expect(ready.status == 200, "ready: \(ready.body)")
        #expect(ready.body.contains(#""status":"ok""#))
        let live = try await harness.get("/health/live")
        #expect(live.status == 200)
        #expect(live.contentType?.hasPrefix("application/json") == true)

        for index in 0..<4 {
            try await harness.send("count-\(index)", OperationsHarness.request("count-\(index)", url: harness.server.layerURL(.states)))
        }
        try await harness.send(nil, "this is not JSON")
        try await harness.send("slow-1", OperationsHarness.request("slow-1", url: harness.server.layerURL(.legacyParcels)))
        let status = try await harness.waitForStatus { $0.answered >= 5 && $0.inFlight.count == 1 }
        #expect(status.answered == 5)
        #expect(status.inFlight.map(\.requestId) == ["slow-1"])
        #expect(status.outcomes.contains { $0.status == "succeeded" && $0.code == "none" && $0.count == 4 })
        #expect(status.recentErrors.map(\.code) == ["invalid_json"])
        #expect(status.partitions.count == 3)

        let page = try await harness.get("/")
        #expect(page.status == 200)
        #expect(page.contentType == "text/html; charset=utf-8")
        let dom = StatusPageDOM(html: page.body)
        #expect(page.body.contains(#"<meta http-equiv="refresh""#))
        #expect(dom.value("answered") == "5")
        #expect(dom.value("in-flight-count") == "1")
        #expect(dom.rows("in-flight").first?["request-id"] == "slow-1")
        #expect(dom.rows("partitions").count == 3)
        #expect(dom.rows("recent-errors").first?["code"] == "invalid_json")
        #expect(dom.rows("settings").contains { $0["key"] == "kafka.sasl.password" && $0["value"] == "&lt;redacted&gt;" })
        #expect(!page.body.contains("hunter2"), "a secret reached the status page")
        for loads in ["src=", "href=", "<script", "<link", "@import"] {
            #expect(!page.body.contains(loads), "the page loads nothing (\(loads))")
        }

        let metrics = try await harness.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.contentType == "text/plain; version=0.0.4; charset=utf-8")
        #expect((try await harness.get("/no-such-page")).status == 404)

        // Draining (the slow request holds the drain for shutdownTimeout): not ready, still live, still serving.
        await harness.group.triggerGracefulShutdown()
        let draining = try await harness.waitForEndpoint("/health/ready", status: 503, timeout: .seconds(10))
        #expect(draining.body.contains(#""phase":"draining""#), "ready while draining: \(draining.body)")
        #expect(try await harness.get("/health/live").status == 200)
        try await harness.stop()
    }

    @Test func notReadyButLiveWithAnUnreachableBroker() async throws {
        let closedPort = try ChildProcesses.unusedPort()
        let harness = try await OperationsHarness { $0.bootstrapServers = ["127.0.0.1:\(closedPort)"] }
        let live = try await harness.waitForEndpoint("/health/live", status: 200)
        #expect(live.status == 200, "live: \(live.body)")
        // Long enough for a reachable cluster's join (a second or two): still not ready.
        try await Task.sleep(for: .seconds(3))
        let ready = try await harness.get("/health/ready")
        #expect(ready.status == 503)
        #expect(ready.body.contains(#""status":"unavailable""#))
        #expect(ready.body.contains(#""reason":"#), "the body says why: \(ready.body)")
        let page = StatusPageDOM(html: try await harness.get("/").body)
        #expect(page.first(#"id="ready"[^>]*data-ready="([a-z]+)""#) == "false")
        try await harness.stop()
    }
}
