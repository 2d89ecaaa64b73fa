import ChildProcessFixture
import Foundation
import Glibc

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
    private let child: SpawnedChild
    let stdoutPath: String
    let stderrPath: String

    /// Starts `executable` with `arguments`; standard input comes from `inputPath` (or /dev/null), output
    /// goes to files in `directory`. Spawned with `posix_spawn` (``SpawnedChild``): Foundation's `Process`
    /// crashed listing this process's descriptors while 10,000 transfers held them.
    init(_ executable: String, _ arguments: [String], inputPath: String? = nil, directory: String) throws {
        self.executable = executable
        let name = URL(fileURLWithPath: executable).lastPathComponent + "-" + UUID().uuidString.prefix(8)
        stdoutPath = "\(directory)/\(name).out"
        stderrPath = "\(directory)/\(name).err"
        let flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC
        let output = open(stdoutPath, flags, 0o644), errors = open(stderrPath, flags, 0o644)
        let input = open(inputPath ?? "/dev/null", O_RDONLY | O_CLOEXEC)
        defer { [output, errors, input].filter { $0 >= 0 }.forEach { close($0) } }
        guard output >= 0, errors >= 0, input >= 0 else {
            throw Failure(description: "cannot open the files of \(executable) in \(directory): errno \(errno)")
        }
        child = try SpawnedChild([executable] + arguments, standardInput: input, standardOutput: output, standardError: errors)
    }

    var isRunning: Bool { child.isRunning }

    var processIdentifier: Int32 { child.pid }

    /// Waits for the child to exit; after `timeout` it is terminated (SIGTERM) and waited for.
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(60)) async -> Int32 {
        if let ended = await child.waitForExit(timeout: timeout) { return Self.status(ended) }
        terminate()
        return await exitStatus()
    }

    /// Sends SIGTERM to this child (by its own process id) if it is still running.
    func terminate() {
        child.signal(SIGTERM)
    }

    /// Terminates the child (SIGTERM, then SIGKILL after `grace`) and waits until it has exited.
    func stop(grace: Duration = .seconds(10)) async {
        terminate()
        if await child.waitForExit(timeout: grace) == nil { child.signal(SIGKILL) }
        _ = await exitStatus()
    }

    private func exitStatus() async -> Int32 {
        while true {
            if let ended = await child.waitForExit(timeout: .seconds(60)) { return Self.status(ended) }
        }
    }

    /// As Foundation's `terminationStatus`: the exit code, or the signal that ended the child.
    private static func status(_ termination: SpawnedChild.Termination) -> Int32 {
        switch termination {
        case .exited(let code): code
        case .signalled(let signal): signal
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
