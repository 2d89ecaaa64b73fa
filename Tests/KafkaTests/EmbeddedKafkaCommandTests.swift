import ChildProcessFixture
import Foundation
import Testing

/// `query-worker embedded-kafka` as a user runs it: a separate process, independent clients, signals.
@Suite struct EmbeddedKafkaCommandTests {
    static var executable: String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [
            besideTests.appendingPathComponent("query-worker").path,
            besideTests.deletingLastPathComponent().appendingPathComponent("query-worker").path,
            ExternalProcess.repositoryRoot.appendingPathComponent(".build/debug/query-worker").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static let toolsAvailable = ExternalProcess.interopRequired || (ExternalProcess.kcat != nil && ExternalProcess.hasAIOKafka)

    @Test(.enabled(if: toolsAvailable, "kcat and aiokafka are needed (scripts/setup-deps installs them)"))
    func independentClientsProduceAndConsumeAsAGroupThenSIGTERMStopsIt() async throws {
        let executable = try #require(Self.executable, "query-worker was not built")
        let kcat = try #require(ExternalProcess.kcat)
        let python = try #require(ExternalProcess.python)

        let server = try CommandChild.start(
            executable, ["embedded-kafka", "--brokers", "3", "--topic", "jobs:6", "--log-level", "warning"])
        defer { server.stop() }

        let bootstrap = try #require(server.firstLine, "no bootstrap line")
        let brokers = bootstrap.split(separator: ",")
        #expect(brokers.count == 3)
        #expect(brokers.allSatisfy { $0.hasPrefix("127.0.0.1:") })

        let lines = (0..<60).map { "t\($0 % 6):job-\($0)" }.joined(separator: "\n") + "\n"
        let produced = try await ExternalProcess.run(kcat, ["-b", bootstrap, "-t", "jobs", "-P", "-K:"], input: lines)
        #expect(produced.status == 0, "kcat: \(produced.stderr)")

        let script = ExternalProcess.repositoryRoot.appendingPathComponent("Tests/KafkaTests/Interop/aiokafka_client.py").path
        let consumed = try await ExternalProcess.run(python, [script, "consume", bootstrap, "jobs", "60", "aiokafka-group"], timeout: .seconds(90))
        #expect(consumed.status == 0, "aiokafka: \(consumed.stderr)")
        let values = Set(consumed.stdout.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])?["value"]
        })
        #expect(values == Set((0..<60).map { "job-\($0)" }))

        // kcat as a balanced group member on the same cluster.
        let group = try await ExternalProcess.run(
            kcat, ["-b", bootstrap, "-G", "kcat-group", "-X", "auto.offset.reset=earliest", "-e", "-q", "-f", "%s\n", "jobs"],
            timeout: .seconds(60)
        )
        #expect(Set(group.stdout.split(separator: "\n").map(String.init)) == Set((0..<60).map { "job-\($0)" }))

        server.terminate()  // SIGTERM
        #expect(server.exitedCleanly)
    }
}
