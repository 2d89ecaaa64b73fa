import ChildProcessFixture
import Foundation

/// A long-running child (`embedded-kafka`, `sample-feature-server`, `run`) for the command tests: started,
/// its first line of standard output read (the bootstrap list or the services URL), stopped with SIGTERM.
final class CommandChild: @unchecked Sendable {
    private let process: Process
    /// The first line of standard output, when the child prints one (`nil` if it ended first).
    let firstLine: String?

    private init(process: Process, firstLine: String?) {
        self.process = process
        self.firstLine = firstLine
    }

    /// `environment` is added to this process's (`nil`: inherited as it is).
    static func start(
        _ executable: String, _ arguments: [String], readsFirstLine: Bool = true, environment: [String: String]? = nil
    ) throws -> CommandChild {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardError = FileHandle.nullDevice
        let stdout = Pipe()
        process.standardOutput = readsFirstLine ? stdout : FileHandle.nullDevice
        // From a thread with an empty signal mask: a child inherits its spawner's, and the cooperative threads
        // block SIGTERM, so a child started from one never sees the SIGTERM that stops it (the OTLP receiver, a
        // Python process, did not; `stop()` then waited forever).
        try ChildProcesses.spawn(process)
        let line = readsFirstLine ? EmbeddedKafkaCommandTests.firstLine(of: stdout.fileHandleForReading) : nil
        return CommandChild(process: process, firstLine: line)
    }

    /// Sends SIGTERM and waits for the exit, at most `grace`, then SIGKILL; returns the exit status (a signal's
    /// number if it was killed). A child that does not stop on SIGTERM (one that inherited it ignored, or hangs in
    /// its shutdown) then fails the test that expected a clean exit instead of hanging the whole run in a `defer`.
    @discardableResult
    func terminate(grace: Duration = .seconds(60)) -> Int32 {
        if process.isRunning {
            process.terminate()
            let deadline = ContinuousClock.now + grace
            while process.isRunning, ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// For `defer`: SIGTERM if still running, then wait.
    func stop() {
        _ = terminate()
    }
}

/// What a command printed and how it exited.
struct CommandOutput: Sendable, CustomStringConvertible {
    var status: Int32
    var stdout: String
    var stderr: String

    var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }

    /// Runs a command to its end without blocking a thread of the cooperative pool (the exit is awaited
    /// through `terminationHandler`), so several can run at once; killed after `timeout`.
    /// `environment` is added to this process's (`nil`: inherited as it is).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(90)
    ) async throws -> CommandOutput {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("query-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out")
        let errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let child = UncheckedProcess(process)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    child.process.terminationHandler = { _ in continuation.resume() }
                    do {
                        try child.process.run()
                    } catch {
                        child.process.terminationHandler = nil
                        continuation.resume(throwing: error)
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                child.process.terminate()
            }
            try await group.next()
            group.cancelAll()
        }
        return CommandOutput(
            status: process.terminationStatus,
            stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}

/// A `Process` handed to the tasks that start it and time it out; each touches it once, in order.
private struct UncheckedProcess: @unchecked Sendable {
    let process: Process
    init(_ process: Process) { self.process = process }
}
