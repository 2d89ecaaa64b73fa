import ChildProcessFixture
import Foundation
import Glibc

/// Runs an independent client (kcat, Python with aiokafka) as a child process, for interop tests.
struct ExternalProcess {
    typealias Output = ChildOutput

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
        try await ChildProcesses.complete([executable] + arguments, input: Array((input ?? "").utf8), timeout: timeout)
    }

    /// ``run(_:_:input:timeout:)`` for a synchronous caller (a test trait's condition); only for quick commands.
    static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) throws -> Output {
        try ChildProcesses.completeBlocking([executable] + arguments, timeout: timeout)
    }
}
