import ChildProcessFixture
import Foundation
import Glibc

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

    static var python: String? { ChildProcesses.python }

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
        _ = await child.process.waitForExit(timeout: timeout)
        return await child.finish()
    }

    /// ``run(_:_:input:timeout:)`` for a synchronous caller (a test trait's condition); only for quick commands.
    static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) throws -> Output {
        let child = try Child(executable, arguments, input: nil)
        let deadline = ContinuousClock.now + timeout
        while child.process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if child.process.isRunning { child.process.signal(SIGKILL) }
        while child.process.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        return child.output()
    }

    /// A started child, its input and output in files in a directory of its own. Spawned with `posix_spawn`
    /// (``SpawnedChild``): Foundation's `Process` crashed listing this process's descriptors when over a thousand
    /// were open among the parallel suites.
    private final class Child {
        let process: SpawnedChild
        private let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)

        init(_ executable: String, _ arguments: [String], input: String?) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let inputPath = directory.appendingPathComponent("in").path
            try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: inputPath))
            let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
            let folder = directory.path
            let output = open("\(folder)/out", flags, 0o644), errors = open("\(folder)/err", flags, 0o644)
            let stdin = open(inputPath, O_RDONLY | O_CLOEXEC)
            defer { [output, errors, stdin].filter { $0 >= 0 }.forEach { close($0) } }
            guard output >= 0, errors >= 0, stdin >= 0 else {
                throw ChildProcessFailure("cannot open the files of \(executable) in \(directory.path): errno \(errno)")
            }
            process = try SpawnedChild([executable] + arguments, standardInput: stdin, standardOutput: output, standardError: errors)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

        /// Ends the child if it still runs (its time is up) and returns what it wrote.
        func finish() async -> Output {
            process.signal(SIGTERM)
            if await process.waitForExit(timeout: .seconds(10)) == nil { process.signal(SIGKILL) }
            while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
            return output()
        }

        func output() -> Output {
            let status: Int32
            switch process.termination {
            case .exited(let code): status = code
            case .signalled(let signal): status = signal
            case nil: status = -1
            }
            return Output(
                status: status,
                stdout: (try? String(contentsOfFile: path("out"), encoding: .utf8)) ?? "",
                stderr: (try? String(contentsOfFile: path("err"), encoding: .utf8)) ?? "")
        }
    }
}
