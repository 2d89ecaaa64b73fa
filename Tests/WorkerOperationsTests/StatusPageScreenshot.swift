import ChildProcessFixture
import Foundation
import SampleFeatureServer
import Testing
import QueryWorker

/// The README's picture of the status page (docs/operations/status-page.png), taken by
/// `scripts/status-page-screenshot`: a worker under a minute and a half of mixed traffic (counts, features,
/// a few refused and failing requests, two slow ones in flight), photographed by headless Chromium. Runs only
/// when `QUERY_WORKER_STATUS_SCREENSHOT` names the file to write.
@Suite(.serialized)
struct StatusPageScreenshot {
    static let output = ProcessInfo.processInfo.environment["QUERY_WORKER_STATUS_SCREENSHOT"]

    @Test(.enabled(if: output != nil && InteropTools.runs("chromium"), "set QUERY_WORKER_STATUS_SCREENSHOT=path.png to take it"))
    func takeTheReadmeScreenshot() async throws {
        let output = try #require(Self.output)
        let harness = try await OperationsHarness(
            faults: [
                FaultRule(.latency(milliseconds: 600_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query"),
                FaultRule(.latency(milliseconds: 400), pathContains: "LA_County_Parcels/FeatureServer/0/query"),
            ],
            configure: { settings in
                settings.workerID = "query-worker-7d9f4-2"
                settings.groupID = "feature-query-workers"
                settings.timeouts.request = .seconds(900)  // the two slow exports stay in flight
            })
        _ = try await harness.waitForEndpoint("/health/ready", status: 200)
        try await harness.send("nightly-export-17", OperationsHarness.request("nightly-export-17", url: harness.server.layerURL(.legacyParcels)))
        try await harness.send("nightly-export-18", OperationsHarness.request("nightly-export-18", url: harness.server.layerURL(.legacyParcels)))
        var sent = 0
        for wave in 0..<45 {
            let size = 4 + (wave * 7) % 11
            for index in 0..<size {
                sent += 1
                let layer: SampleLayer = index % 3 == 0 ? .parcels : .states
                let query = layer == .parcels ? #"{"where":"UseType = 'Government'","result":"count"}"# : #"{"where":"POP2000 > 1000000"}"#
                try await harness.send("req-\(sent)", OperationsHarness.request("req-\(sent)", url: harness.server.layerURL(layer), query: query))
            }
            if wave % 6 == 2 { try await harness.send(nil, "{\"requestId\":\"bad-\(wave)\",") }
            if wave % 9 == 4 {
                try await harness.send("elsewhere-\(wave)", OperationsHarness.request("elsewhere-\(wave)", url: "https://gis.example.org/arcgis/rest/services/X/FeatureServer/0"))
            }
            try await Task.sleep(for: .seconds(2))
        }
        try await harness.waitForStatus { $0.inFlight.count <= 2 }
        let directory = try InteropTools.temporaryDirectory("screenshot")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await ChildProcesses.run(
            [InteropTools.path("chromium") ?? "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--user-data-dir=\(directory)/profile", "--window-size=1100,1500", "--screenshot=\(output)", harness.baseURL + "/"],
            timeout: .seconds(90))
        #expect(FileManager.default.fileExists(atPath: output))
        try await harness.stop()
    }
}
