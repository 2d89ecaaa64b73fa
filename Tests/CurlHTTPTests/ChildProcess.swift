import ChildProcessFixture
import Foundation
import Synchronization

/// A program the tests start: a one-shot tool (openssl, gzip, brotli, zstd) or a server kept in the
/// foreground (nginx, apache2). Output goes to files, never pipes, so a chatty child can't block; waiting
/// is async, so a test waiting for a child never holds one of the few cooperative threads.
final class ChildProcess: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    let executable: String
    private let process: Process
    private let exited = Locked<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))
    let stdoutPath: String
    let stderrPath: String

    /// Starts `executable` with `arguments`; standard input comes from `inputPath` (or /dev/null), output
    /// goes to files in `directory`.
    init(_ executable: String, _ arguments: [String], inputPath: String? = nil, directory: String) throws {
        self.executable = executable
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let name = URL(fileURLWithPath: executable).lastPathComponent + "-" + UUID().uuidString.prefix(8)
        stdoutPath = "\(directory)/\(name).out"
        stderrPath = "\(directory)/\(name).err"
        for path in [stdoutPath, stderrPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath ?? "/dev/null"))
        self.process = process
        let exited = exited
        process.terminationHandler = { process in
            let status = process.terminationStatus
            let waiters = exited.withLock { state in
                state.status = status
                defer { state.waiters = [] }
                return state.waiters
            }
            waiters.forEach { $0.resume(returning: status) }
        }
        // From a thread with an empty signal mask, so the SIGTERM that stops it is not blocked.
        try ChildProcesses.spawn(process)
    }

    var isRunning: Bool { exited.withLock { $0.status == nil } }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Waits for the child to exit; after `timeout` it is terminated (SIGTERM) and waited for.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int32 {
        await withTaskGroup(of: Int32?.self) { group in
            group.addTask { await self.exitStatus() }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            if let first = await group.next(), let status = first {
                group.cancelAll()
                return status
            }
            group.cancelAll()
            self.terminate()
            return await self.exitStatus()
        }
    }

    /// Sends SIGTERM to this child (by its own process id) if it is still running.
    func terminate() {
        if isRunning { process.terminate() }
    }

    /// Terminates the child (SIGTERM, then SIGKILL after `grace`) and waits until it has exited.
    func stop(grace: Duration = .seconds(10)) async {
        terminate()
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = await self.exitStatus()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: grace)
                return false
            }
            let exitedInTime = await group.next() ?? true
            group.cancelAll()
            if !exitedInTime, isRunning { kill(processIdentifier, SIGKILL) }
        }
    }

    private func exitStatus() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let status = exited.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
    var standardOutput: [UInt8] { (FileManager.default.contents(atPath: stdoutPath)).map { Array($0) } ?? [] }

    /// Runs a tool to completion and returns its output; throws when it can't start.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8]? = nil, timeout: Duration = .seconds(60)) async throws -> Output {
        let directory = try TemporaryDirectory(prefix: "tool")
        defer { directory.remove() }
        var inputPath: String?
        if let input {
            inputPath = directory.path + "/input"
            try Data(input).write(to: URL(fileURLWithPath: directory.path + "/input"))
        }
        let child = try ChildProcess(executable, arguments, inputPath: inputPath, directory: directory.path)
        let status = await child.waitForExit(timeout: timeout)
        return Output(status: status, stdout: child.standardOutput, stderr: child.standardError)
    }

    /// Runs a tool that must succeed and returns its standard output.
    static func check(_ executable: String, _ arguments: [String], input: [UInt8]? = nil) async throws -> [UInt8] {
        let output = try await run(executable, arguments, input: input)
        guard output.status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) exited with \(output.status): \(output.stderr)")
        }
        return output.stdout
    }
}

/// A value behind a lock, in a class so that escaping closures can share it.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) {
        mutex = Mutex(value)
    }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        mutex.withLock { body(&$0) }
    }
}

/// Finds the external programs the interop tests use, and says whether they must run.
enum Tools {
    /// Set by scripts/test: the interop tests must run (and fail when a tool is missing), not be skipped.
    static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    /// The program's path on PATH or in the sbin directories (nginx and apache2 live in /usr/sbin).
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/local/sbin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a test that needs these programs should run: they are there, or they are required.
    static func available(_ names: String...) -> Bool {
        interopRequired || names.allSatisfy { find($0) != nil }
    }

    /// The program's path, or an error naming the package that provides it.
    static func require(_ name: String) throws -> String {
        guard let path = find(name) else {
            throw ChildProcess.Failure(description: "'\(name)' is not installed (scripts/setup-deps installs it)")
        }
        return path
    }
}

/// A fresh directory under the temporary directory, readable by everyone (nginx and apache2 workers run
/// as another user when the tests run as root), removed by `remove()`.
struct TemporaryDirectory: Sendable {
    let path: String

    init(prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("curlhttp-\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: "\(path)/\(name)"))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: "\(path)/\(name)")
    }

    func makeDirectory(_ name: String) throws {
        try FileManager.default.createDirectory(atPath: "\(path)/\(name)", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
