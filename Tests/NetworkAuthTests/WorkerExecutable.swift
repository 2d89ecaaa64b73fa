import ChildProcessFixture
import Foundation
import NetworkAuthFixture

/// The `query-worker` executable as a child process: its embedded Kafka cluster, `run` with a credentials file
/// and an environment given in full, and `query --wait --json` for one outcome.
///
/// Children get an environment of their own, never this process's: other suites here change this process's
/// environment (Kerberos is process-wide), and the worker must be seen to set its Kerberos variables itself.
enum WorkerExecutable {
    /// `query-worker`, built beside the test bundle.
    static var path: String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            besideTests.appendingPathComponent("query-worker").path,
            besideTests.deletingLastPathComponent().appendingPathComponent("query-worker").path,
            root.appendingPathComponent(".build/debug/query-worker").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Every child's environment: a search path and nothing of this process's (no Kerberos variables).
    static let baseEnvironment = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"]

    /// A credentials file in a folder of its own (the caller removes `folder`).
    static func credentialsFile(_ json: String) throws -> (folder: String, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-exe-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(json.utf8).write(to: URL(fileURLWithPath: "\(folder)/credentials.json"))
        return (folder, "\(folder)/credentials.json")
    }

    /// Runs `body` with the bootstrap list of `query-worker embedded-kafka` (the topics `run` and `query` use),
    /// then stops the cluster.
    static func withCluster<T>(_ executable: String, _ body: (String) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-kafka-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let kafka = try WatchedProcess(
            name: "embedded-kafka",
            [executable, "embedded-kafka", "--topic", "feature-queries:1", "--topic", "feature-query-results:1",
             "--topic", "feature-query-errors:1", "--log-level", "warning"],
            removeOnExit: [folder], environment: baseEnvironment, logDirectory: folder)
        do {
            let bootstrap = try await firstLine(of: kafka) { $0.hasPrefix("127.0.0.1:") }
            let result = try await body(bootstrap)
            await kafka.stop()
            return result
        } catch {
            await kafka.stop()
            throw error
        }
    }

    /// `query-worker run` on `bootstrap` with `credentialsFile`, loopback hosts allowed; its log (JSON lines,
    /// info level) in `logDirectory`. `environment` is added to ``baseEnvironment``.
    static func startWorker(
        _ executable: String, bootstrap: String, credentialsFile: String, environment: [String: String], logDirectory: String
    ) async throws -> WatchedProcess {
        let worker = try WatchedProcess(
            name: "query-worker",
            [executable, "run", "--bootstrap-servers", bootstrap, "--allowed-hosts", "localhost,127.0.0.1",
             "--group-id", "worker-executable-\(UUID().uuidString.prefix(8))", "--credentials-file", credentialsFile,
             "--log-level", "info"],
            environment: baseEnvironment.merging(environment) { $1 }, logDirectory: logDirectory)
        // The start-up echo: credentials checked, the Kerberos identity installed.
        _ = try await firstLine(of: worker) { $0.contains("starting") }
        return worker
    }

    /// The first line of `process`'s log that `matches`, waiting up to a minute.
    static func firstLine(of process: WatchedProcess, matching matches: (String) -> Bool) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let line = process.log.split(separator: "\n").map(String.init).first(where: matches) { return line }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ChildProcessFailure("\(process.name) printed no expected line: \(process.log.suffix(2_000))")
    }

    /// `query-worker query --wait --json` for one layer: its (single-part) outcome.
    static func query(_ executable: String, bootstrap: String, target: String, where clause: String) async throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("worker-query-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let query = try WatchedProcess(
            name: "query",
            [executable, "query", "--bootstrap-servers", bootstrap, "--wait", "--wait-timeout", "90s", "--json",
             "--target", target, "--where", clause],
            environment: baseEnvironment, logDirectory: folder)
        let deadline = ContinuousClock.now + .seconds(120)
        while query.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        await query.stop()
        let text = query.log
        // Standard output and error share the log: the outcome is the JSON line with a status.
        let outcome = text.split(separator: "\n").lazy.filter { $0.hasPrefix("{") }
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .first { $0["status"] is String }
        guard let outcome else { throw ChildProcessFailure("query printed no outcome: \(text.suffix(2_000))") }
        return Outcome(json: outcome)
    }

    /// The parts of an outcome message a test checks.
    struct Outcome: CustomStringConvertible {
        let json: [String: Any]
        var status: String? { json["status"] as? String }
        var firstLayer: [String: Any]? { (json["layers"] as? [[String: Any]])?.first }
        var objectIDs: [Int]? { firstLayer?["objectIds"] as? [Int] }
        /// The layer's error code, or the request's.
        var errorCode: String? {
            ((firstLayer?["error"] as? [String: Any])?["code"] as? String) ?? ((json["error"] as? [String: Any])?["code"] as? String)
        }
        var description: String {
            (try? JSONSerialization.data(withJSONObject: json)).map { String(decoding: $0, as: UTF8.self) } ?? "\(json)"
        }
    }
}
