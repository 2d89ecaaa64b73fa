import ChildProcessFixture
import Foundation
import Glibc

/// A `query-worker` child process, its JSON log lines in a file.
package final class WorkerProcess: Sendable {
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

    private let child: CapturedChild

    package init(executable: String, arguments: [String]) throws {
        child = try CapturedChild([executable] + arguments)
    }

    /// SIGKILL, then waits for the process to be gone. Nothing if it already exited.
    package func kill() {
        guard child.process.isRunning else { return }
        _ = child.process.killAndWait()
    }

    /// SIGTERM, then waits up to `timeout` for a clean exit; true when it exited with status 0. Waits with
    /// `Task.sleep`, not by blocking a thread: the cooperative pool has one thread per core, and the suites
    /// running beside this one need it.
    package func terminate(timeout: Duration) async -> Bool {
        guard child.process.isRunning else { return false }
        child.process.signal(SIGTERM)
        return await child.process.waitForExit(timeout: timeout) == .exited(0)
    }

    package var stderr: String { child.standardError }

    /// Standard output: the JSON log lines, as written.
    package var standardOutput: String { child.standardOutput }

    /// The answers this worker said it left uncommitted (their requests' next owner answers them again): the
    /// sum of `answeredUncommitted` over its lines for partitions revoked or lost.
    package var answersLeftUncommitted: Int {
        let lines: Set = [
            "partitions revoked", "partitions lost",
            "partitions revoked while commits are refused; their requests are left to the next owner",
        ]
        return logLines.reduce(0) { sum, line in
            guard let message = line["message"] as? String, lines.contains(message) else { return sum }
            return sum + ((line["answeredUncommitted"] as? Int) ?? 0)
        }
    }

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
