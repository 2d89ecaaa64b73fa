import Foundation
import Synchronization

import QueryWorker

/// Runs a command to its end, awaiting its exit without holding a thread, with no `QUERY_WORKER_*`
/// variables of the test's environment (they would be settings too).
package enum CommandRun {
    package struct Output: CustomStringConvertible {
        package var status: Int32
        package var stdout: String
        package var stderr: String
        package var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    package static func run(_ executable: String, _ arguments: [String]) async throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(SettingsKey.environmentPrefix) }
        let files = try ProcessOutputFiles(for: process)
        defer { files.remove() }
        let exited = ExitSignal()
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        await exited.wait()
        return Output(status: process.terminationStatus, stdout: files.stdout, stderr: files.stderr)
    }
}

/// A one-time signal a task can await, set from any thread (a process's termination handler).
final class ExitSignal: Sendable {
    private let state = Mutex<(signalled: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func signal() {
        let waiter = state.withLock { state in
            state.signalled = true
            return state.waiter.take()
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let signalled = state.withLock { state in
                if !state.signalled { state.waiter = continuation }
                return state.signalled
            }
            if signalled { continuation.resume() }
        }
    }
}

/// A child process's standard output and error, captured in files of a fresh temporary folder (pipes could
/// fill and block a chatty child); its standard input is /dev/null.
struct ProcessOutputFiles {
    let directory: URL
    let outURL: URL
    let errURL: URL

    init(for process: Process) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("process-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        outURL = directory.appendingPathComponent("out")
        errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
    }

    var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
