import ChildProcessFixture
import Foundation
import QueryWorker
import SampleFeatureServer
import Testing

/// The status page in a real browser (Debian's headless Chromium) while the worker runs: the figures Chromium
/// renders are the worker's own.
@Suite(.serialized)
struct StatusPageBrowserTests {
    @Test(.enabled(if: InteropTools.runs("chromium"), "chromium is not installed (scripts/setup-deps installs it)"))
    func chromiumShowsTheWorkersFigures() async throws {
        let harness = try await OperationsHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query")])
        _ = try await harness.waitForEndpoint("/health/ready", status: 200)
        for index in 0..<6 {
            try await harness.send("count-\(index)", OperationsHarness.request("count-\(index)", url: harness.server.layerURL(.states)))
        }
        try await harness.send(nil, "{not json")
        try await harness.send("slow-1", OperationsHarness.request("slow-1", url: harness.server.layerURL(.legacyParcels)))
        let status = try await harness.waitForStatus { $0.answered >= 7 && $0.inFlight.count == 1 }
        try #require(status.answered == 7, "the worker answered \(status.answered) of 7")

        let directory = try InteropTools.temporaryDirectory("chromium")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let chromium = InteropTools.path("chromium") ?? "chromium"
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory)/profile", "--no-first-run"]
        let dom = StatusPageDOM(html: try await ChildProcesses.run([chromium] + flags + ["--dump-dom", harness.baseURL + "/"], timeout: .seconds(90)))
        let now = harness.assembly.status()

        #expect(dom.first(#"<body data-worker-id="([^"]*)""#) == now.workerID)
        #expect(dom.value("answered") == String(now.answered))
        #expect(dom.value("partition-count") == String(now.partitions.count))
        #expect(dom.rows("partitions").map { $0["partition"] ?? "" } == now.partitions.map { String($0.partition) })
        #expect(dom.rows("in-flight").map { $0["request-id"] ?? "" } == now.inFlight.map(\.requestId))
        #expect(dom.rows("outcomes").map { $0["count"] ?? "" } == now.outcomes.map { String($0.count) })
        #expect(dom.rows("recent-errors").first?["code"] == "invalid_json")
        #expect(dom.first(#"<svg id="activity-chart"[^>]*data-answered="(\d+)""#) == String(now.activity.reduce(0) { $0 + $1.answered }))

        let screenshot = "\(directory)/status.png"
        try await ChildProcesses.run(
            [chromium] + flags + ["--hide-scrollbars", "--window-size=1000,1400", "--screenshot=\(screenshot)", harness.baseURL + "/"],
            timeout: .seconds(90))
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        #expect(png.count > 10_000, "a page with content, not a blank: \(png.count) bytes")
        try await harness.stop()
    }
}
