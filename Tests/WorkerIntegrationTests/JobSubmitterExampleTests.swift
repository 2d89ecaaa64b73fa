import ChildProcessFixture
import Foundation
import Kafka
import Logging
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The example package's `job-submitter` (Examples/, built by scripts/test after the main build) as a service
/// team runs it: a separate process using only the public client library, against a `query-worker run` process
/// on the embedded cluster and the sample feature server, its lines and exit status checked.
@Suite("Examples: job-submitter against query-worker run")
struct JobSubmitterExampleTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var executable: String? {
        let path = repositoryRoot.appendingPathComponent("Examples/.build/debug/job-submitter").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// scripts/test builds the example and sets this, so that a missing binary fails the run there; a plain
    /// `swift test` skips the suite instead.
    static var required: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_EXAMPLES"] == "1" }

    static let logger: Logger = {
        var logger = Logger(label: "job-submitter-example")
        logger.logLevel = .critical
        return logger
    }()

    @Test(.enabled(
        if: executable != nil || required,
        "Examples/.build/debug/job-submitter is not built (swift build --package-path Examples; scripts/test builds it)"))
    func countSupersedeCancelAndAJobTheWorkerWouldReject() async throws {
        let submitter = try #require(
            Self.executable,
            "QUERY_WORKER_REQUIRE_EXAMPLES=1 and Examples/.build/debug/job-submitter is missing: scripts/test builds it with swift build --package-path Examples")
        let queryWorker = try #require(WorkerProcess.executable, "query-worker was not built next to the tests")
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: Self.logger)
        // The topics the worker and the client library use by default: the example configures none.
        try cluster.createTopic("feature-queries", partitions: 3)
        try cluster.createTopic("feature-query-results", partitions: 1)
        try cluster.createTopic("feature-query-errors", partitions: 1)
        // The legacy layer answers after a minute: a job on it is in flight when its cancel comes.
        let slow = FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query")
        let dataset = try SampleDataset.shared(parcelCount: 20_000, seed: 7)
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 20_000, seed: 7, faults: [slow]), dataset: dataset,
            logger: Self.logger)
        let worker = try WorkerProcess(executable: queryWorker, arguments: [
            "run", "--bootstrap-servers", cluster.bootstrapServers, "--group-id", "example-workers",
            "--allowed-hosts", "127.0.0.1", "--log-level", "warning", "--set", "summaryInterval=0",
        ])
        defer { worker.kill() }

        // Each run ends by itself: its calls time out after 60 s at the latest, and the test awaits its exit.
        func run(_ arguments: [String]) async throws -> (output: CommandRun.Output, lines: [String]) {
            let output = try await CommandRun.run(
                submitter, ["--bootstrap-servers", cluster.bootstrapServers, "--timeout", "60s"] + arguments)
            return (output, output.stdout.split(separator: "\n").map(String.init))
        }
        let parcels = server.layerURL(.parcels)
        let residential = "UseType = 'Residential'"
        // The ground truth: the sample dataset's own records, filtered by brute force (not by any server's query).
        let truth = try dataset.groundTruthObjectIDs(.parcels, where: residential).count
        try #require(truth > 1_000)

        let counted = try await run(["--target", parcels, "--where", residential, "--result", "count", "--jobs", "3"])
        #expect(counted.output.status == 0, "\(counted.output)")
        #expect(counted.lines.count == 3, "one line per job: \(counted.output)")
        for line in counted.lines {
            #expect(line.hasPrefix("succeeded request="), "\(line)")
            #expect(line.contains(" layer=\(parcels) count=\(truth)"), "the layer's count is the dataset's: \(line)")
            #expect(!line.contains(" ids="), "a count result has no ids: \(line)")
        }
        #expect(Set(counted.lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("task=") } }).count == 3)

        let superseded = try await run(["--target", parcels, "--where", residential, "--supersede", "--task-id", "map-view"])
        #expect(superseded.output.status == 0, "the superseded job is what --supersede asked for: \(superseded.output)")
        try #require(superseded.lines.count == 2, "\(superseded.output)")
        let newer = try #require(superseded.lines[1].split(separator: " ").first { $0.hasPrefix("request=") }?.dropFirst(8))
        #expect(superseded.lines[0].hasPrefix("superseded request="), "the first job: \(superseded.lines[0])")
        #expect(superseded.lines[0].contains(" task=map-view "))
        #expect(superseded.lines[0].contains(" error=superseded retryable=false"))
        #expect(superseded.lines[0].hasSuffix(" superseded-by=\(newer)"), "\(superseded.lines[0])")
        #expect(superseded.lines[1].hasPrefix("succeeded request="), "the second job: \(superseded.lines[1])")
        #expect(superseded.lines[1].contains(" task=map-view ") && superseded.lines[1].contains(" count=\(truth)"))

        let legacy = server.layerURL(.legacyParcels)
        let cancelled = try await run(["--target", legacy, "--where", residential, "--cancel", "--task-id", "slow-view"])
        #expect(cancelled.output.status == 0, "the cancelled job is what --cancel asked for: \(cancelled.output)")
        #expect(cancelled.lines.count == 1, "\(cancelled.output)")
        #expect(cancelled.lines.first?.hasPrefix("cancelled request=") == true, "\(cancelled.output)")
        #expect(cancelled.lines.first?.contains(" task=slow-view error=cancel_requested retryable=") == true, "\(cancelled.output)")

        // Thrown by the client with the worker's own code (its request decoder), before anything is published.
        let invalid = try await run(["--target", parcels, "--where", "UseType = "])
        #expect(invalid.output.status == 1, "\(invalid.output)")
        #expect(invalid.lines.count == 1, "\(invalid.output)")
        #expect(invalid.lines.first?.hasPrefix("client-error request=") == true, "\(invalid.output)")
        #expect(invalid.lines.first?.contains(" error=invalid_where retryable=false fatal=false message=") == true, "\(invalid.output)")

        #expect(await worker.terminate(timeout: .seconds(30)), "the worker stops cleanly: \(worker.stderr)")
        await server.shutdown()
    }
}
