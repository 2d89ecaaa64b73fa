import Foundation

/// Runs an independent client (kcat, Python with aiokafka) as a child process, for interop tests.
struct ExternalProcess {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interop tools must be present when the README's test command runs them (it sets this).
    static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    static var kcat: String? { find("kcat") }

    static var python: String? {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    static var hasAIOKafka: Bool {
        guard let python else { return false }
        return (try? runBlocking(python, ["-c", "import aiokafka"], timeout: .seconds(30)).status) == 0
    }

    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs to completion (killed after `timeout`), feeding `input` to standard input. Waits with
    /// `Task.sleep`: a client runs for seconds, and blocking one of the cooperative pool's threads (one per
    /// core) that long would stall every suite running beside this one.
    static func run(_ executable: String, _ arguments: [String], input: String? = nil, timeout: Duration = .seconds(60)) async throws -> Output {
        let child = try Child(executable, arguments, input: input)
        let deadline = ContinuousClock.now + timeout
        while child.process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(50)) }
        return child.finish()
    }

    /// ``run(_:_:input:timeout:)`` for a synchronous caller (a test trait's condition); only for quick commands.
    static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) throws -> Output {
        let child = try Child(executable, arguments, input: nil)
        let deadline = ContinuousClock.now + timeout
        while child.process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return child.finish()
    }

    /// A started child, its output going to files in a directory of its own.
    private final class Child {
        let process = Process()
        private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)

        init(_ executable: String, _ arguments: [String], input: String?) throws {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: path("out"), contents: nil)
            _ = FileManager.default.createFile(atPath: path("err"), contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path("out")))
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path("err")))
            let stdin = Pipe()
            process.standardInput = stdin
            try process.run()
            if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
            try stdin.fileHandleForWriting.close()
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Ends the child if it still runs (its time is up) and returns what it wrote.
        func finish() -> Output {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            return Output(
                status: process.terminationStatus,
                stdout: (try? String(contentsOfFile: path("out"), encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: path("err"), encoding: .utf8)) ?? "")
        }
    }
}
