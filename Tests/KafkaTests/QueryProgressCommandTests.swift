import ChildProcessFixture
import Foundation
import Testing

/// Progress as a user sees it: `query --wait` and `export` over slow OGC pages print the pages and features read
/// so far on standard error (lines, since standard error is a pipe here), and nothing with `--no-progress`.
@Suite struct QueryProgressCommandTests {
    /// Four pages of 15 states (the `max-limit-15` quirk), each held 700 ms: about 3 s, two or more updates a
    /// second apart.
    static let slowItems = "latency:ms=700,path=/collections/USA_States/items"

    @Test func queryWaitAndExportShowProgressOnStandardError() async throws {
        let executable = try #require(QueryWorkerCommandTests.queryWorker, "query-worker was not built")
        let serverExecutable = try #require(QueryWorkerCommandTests.sampleServer, "sample-feature-server was not built")
        let kafka = try CommandChild.start(
            executable,
            ["embedded-kafka", "--topic", "feature-queries:1", "--topic", "feature-query-results:1",
             "--topic", "feature-query-errors:1", "--topic", "feature-query-progress:1", "--log-level", "warning"])
        defer { kafka.stop() }
        let bootstrap = try #require(kafka.firstLine, "no bootstrap line")
        let server = try CommandChild.start(
            serverExecutable, ["--parcels", "2000", "--fault", Self.slowItems, "--log-level", "warning"])
        defer { server.stop() }
        let services = try #require(server.firstLine, "no services URL")
        let root = try #require(services.range(of: "/arcgis/rest/services").map { String(services[..<$0.lowerBound]) })
        let landing = "\(root)/ogc-quirks/max-limit-15"
        let worker = try CommandChild.start(
            executable,
            ["run", "--bootstrap-servers", bootstrap, "--allowed-hosts", "127.0.0.1", "--group-id", "progress-tests",
             "--log-level", "warning"],
            readsFirstLine: false)
        defer { worker.stop() }

        let target = ["--target", "ogc:\(landing)", "--collection", "USA_States", "--result", "ids"]
        async let shown = CommandOutput.run(executable, ["query", "--bootstrap-servers", bootstrap, "--wait"] + target)
        async let hidden = CommandOutput.run(
            executable, ["query", "--bootstrap-servers", bootstrap, "--wait", "--no-progress", "--task-id", "quiet"] + target)
        async let exported = CommandOutput.run(
            executable, ["export", "--ogc", landing, "--collection", "USA_States", "--no-geometry", "--output", "/dev/null"])

        let query = try await shown
        #expect(query.status == 0, "\(query)")
        let lines = query.stderr.split(separator: "\n").filter { $0.hasPrefix("progress: ") }
        #expect(lines.count >= 2, "progress lines while the pages arrive: \(query.stderr)")
        #expect(lines.first?.contains(" of 49 features") == true, "the total the server announced: \(query.stderr)")
        #expect(query.stdout.contains("succeeded"), "the outcome still prints: \(query)")
        let quiet = try await hidden
        #expect(quiet.status == 0, "\(quiet)")
        #expect(!quiet.stderr.contains("progress: "), "--no-progress: \(quiet.stderr)")
        let export = try await exported
        #expect(export.status == 0, "\(export)")
        // Written in place: an atomic write (a new file renamed over the path) would have made /dev/null a plain file.
        let null = try FileManager.default.attributesOfItem(atPath: "/dev/null")
        #expect(null[.type] as? FileAttributeType == .typeCharacterSpecial, "/dev/null is still a device: \(null)")
        #expect(export.stderr.split(separator: "\n").filter { $0.hasPrefix("progress: ") }.count >= 2, "\(export.stderr)")
        #expect(export.stderr.contains("49 features"), "the summary: \(export.stderr)")
    }
}
