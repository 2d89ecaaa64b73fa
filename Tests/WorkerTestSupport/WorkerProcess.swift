package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A `query-worker` child process, its JSON log lines in a file.
package final class WorkerProcess: @unchecked Sendable {
    /// The executable built next to the test bundle (`swift build --build-tests` builds it).
    package static var executable: String? {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            besideTests.appendingPathComponent("query-worker").path,
            besideTests.deletingLastPathComponent().appendingPathComponent("query-worker").path,
            root.appendingPathComponent(".build/debug/query-worker").path,
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let child: LoggedChildProcess
    private var process: Process { child.process }
    private let lock = NSLock()

    package init(executable: String, arguments: [String]) throws {
        child = try LoggedChildProcess(executable: executable, arguments: arguments, name: "worker")
    }

    /// SIGKILL, then waits for the process to be gone. Nothing if it already exited.
    package func kill() {
        lock.lock()
        defer { lock.unlock() }
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits up to `timeout` for a clean exit; true when it exited with status 0. Waits with
    /// `Task.sleep`, not by blocking a thread: the cooperative pool has one thread per core, and the suites
    /// running beside this one need it.
    package func terminate(timeout: Duration) async -> Bool {
        guard process.isRunning else { return false }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard !process.isRunning else { return false }
        return process.terminationReason == .exit && process.terminationStatus == 0
    }

    package var stderr: String { child.standardError }

    /// The JSON log lines written so far.
    var logLines: [[String: Any]] {
        child.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The partitions the worker holds by its own log: its "partitions assigned" and "partitions revoked" lines
    /// (the worker's lines list partitions as arrays; the consumer's as one text).
    package var assignment: Set<String> {
        var held: Set<String> = []
        for line in logLines {
            guard let partitions = line["partitions"] as? [String] else { continue }
            switch line["message"] as? String {
            case "partitions assigned": held.formUnion(partitions)
            case "partitions revoked", "partitions lost": held.subtract(partitions)
            default: break
            }
        }
        return held
    }
}

/// A child process whose standard output and error go to files in a directory of its own, removed with it:
/// what the tests that run `query-worker` as a real process share.
package final class LoggedChildProcess: @unchecked Sendable {
    package let process = Process()
    private let directory: URL

    package init(executable: String, arguments: [String], name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let out = directory.appendingPathComponent("out")
        let err = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// What the child wrote to standard output so far.
    package var standardOutput: String { (try? String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    /// What the child wrote to standard error so far.
    package var standardError: String { (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? "" }
}
