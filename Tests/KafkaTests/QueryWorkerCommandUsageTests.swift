import ChildProcessFixture
import Foundation
import Testing

/// How the `query-worker` executable answers mistakes and what its help promises, run as a child process.
@Suite struct QueryWorkerCommandUsageTests {
    static let layer = "http://h/arcgis/rest/services/S/FeatureServer/0"

    /// A settings error exits with the status ArgumentParser's own usage errors get (1: `QueryWorkerCommand.main`
    /// maps `EX_USAGE` to it), in `run` and in `query` alike, and names the setting.
    @Test(arguments: [
        (["run", "--bootstrap-servers", "127.0.0.1:99999"], "bootstrapServers"),
        (["run", "--set", "maxInFlihgt=5"], "did you mean 'maxInFlight'?"),
        (["run", "--max-targets", "17"], "maxTargets"),
        (["run", "--max-layers", "0"], "maxLayers"),
        (["query", "--bootstrap-servers", "127.0.0.1:99999", "--target", layer], "bootstrapServers"),
    ])
    func settingsErrorsExitAsUsageErrorsDo(arguments: [String], message: String) async throws {
        let executable = try #require(EmbeddedKafkaCommandTests.executable, "query-worker was not built")
        let usage = try await CommandOutput.run(executable, [arguments[0], "--no-such-flag"])
        let output = try await CommandOutput.run(executable, arguments)
        #expect(usage.status == 1, "\(usage)")
        #expect(output.status == usage.status, "\(output)")
        #expect(output.stderr.contains(message), "\(output)")
    }

    @Test func aMisspelledVariableIsWarnedAboutOnStandardError() async throws {
        let executable = try #require(EmbeddedKafkaCommandTests.executable, "query-worker was not built")
        // A clause a worker would reject: `query` stops before it talks to Kafka, after reading its settings.
        let output = try await CommandOutput.run(
            executable, ["query", "--bootstrap-servers", "127.0.0.1:1", "--target", Self.layer, "--where", "a = = 1"],
            environment: ["QUERY_WORKER_TOPICS_REQUEST": "jobs"])
        #expect(output.status == 1, "\(output)")
        #expect(output.stderr.contains(
            "warning: environment variable QUERY_WORKER_TOPICS_REQUEST is not a setting and is ignored; did you mean "
                + "QUERY_WORKER_TOPICS_REQUESTS?"), "\(output)")
    }

    /// `run` logs the warning as its first JSON line, before `starting`.
    @Test func runLogsAMisspelledVariableAsAWarning() throws {
        let executable = try #require(EmbeddedKafkaCommandTests.executable, "query-worker was not built")
        let worker = try CommandChild.start(
            executable, ["run", "--bootstrap-servers", "127.0.0.1:1", "--shutdown-timeout", "1s"],
            environment: ["QUERY_WORKER_MAX_INFLIGHT": "5"])
        defer { worker.stop() }
        let line = try #require(worker.firstLine, "run printed nothing")
        #expect(line.contains(#""level":"warning""#), "\(line)")
        #expect(line.contains("QUERY_WORKER_MAX_INFLIGHT is not a setting and is ignored; did you mean QUERY_WORKER_MAX_IN_FLIGHT?"), "\(line)")
    }

    @Test func theHelpNamesOGCAndCatalogsAndWarnsOfTheMockClustersRetention() async throws {
        let executable = try #require(EmbeddedKafkaCommandTests.executable, "query-worker was not built")
        // Help text is wrapped to the terminal: compare with white space collapsed.
        func words(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let root = try await CommandOutput.run(executable, ["--help"])
        #expect(words(root.stdout).contains("OGC API Features collections"), "\(root)")
        #expect(!words(root.stdout).contains("coming in the next release"), "\(root)")
        #expect(words(root.stdout).contains("query-worker cancel"), "\(root)")
        let query = try await CommandOutput.run(executable, ["query", "--help"])
        for flag in ["--collection", "--geometry", "--out-fields", "--max-features", "--return-geometry", "--out-sr",
                     "--deadline", "--timeout", "--credential", "--reassembled", "catalog"] {
            #expect(query.stdout.contains(flag), "\(flag): \(query)")
        }
        let cancel = try await CommandOutput.run(executable, ["cancel", "--help"])
        #expect(cancel.stdout.contains("--task-id"), "\(cancel)")
        let embedded = try await CommandOutput.run(executable, ["embedded-kafka", "--help"])
        #expect(words(embedded.stdout).contains("keeps about the last 5 MiB of each partition"), "\(embedded)")
        let run = try await CommandOutput.run(executable, ["run", "--help"])
        #expect(run.stdout.contains("--max-layers"), "\(run)")
    }
}
