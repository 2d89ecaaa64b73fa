import Foundation
import Glibc
import Synchronization

/// Why a fixture could not start: what failed, with the child's output when there is one.
package struct FixtureFailure: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Finding the programs the fixtures run, ports, directories, and running one-shot tools.
enum FixtureTools {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python with pygeoapi: `QUERY_WORKER_PYTHON` (scripts/test sets it), else the repository's `.venv`.
    static var python: String? {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`): they are
    /// not on PATH.
    static var postgresBin: String? {
        let root = "/usr/lib/postgresql"
        let majors = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return majors.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }

    /// A program on PATH.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func require(_ name: String, _ path: String?) throws -> String {
        guard let path else { throw FixtureFailure("\(name) is not installed: run scripts/setup-deps") }
        return path
    }

    /// A loopback port free right now (bound to port 0, read back, released), for servers that need their
    /// port in a configuration file.
    static func unusedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw FixtureFailure("socket() failed: errno \(errno)") }
        defer { _ = Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw FixtureFailure("bind() on 127.0.0.1 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A fresh directory under the temporary directory, readable by everyone (postgres runs as another user).
    static func makeDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }

    /// Starts the process from a thread whose signal mask is empty. A child inherits the mask of the thread
    /// that spawns it, and Swift concurrency's threads block most signals: a postgres started from one would
    /// never see the signal that stops it (as in CurlHTTPTests' ChildProcess).
    static func spawn(_ process: Process) throws {
        let outcome = Mutex<Result<Void, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            let result = Result { try process.run() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.start()
        done.wait()  // a few milliseconds: fork and exec
        try outcome.withLock { $0 }?.get()
    }

    /// Runs a one-shot tool to completion (killed after `timeout`) and returns its output; throws when it
    /// fails. Waits with `Task.sleep`, never blocking a cooperative thread.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(120)
    ) async throws -> String {
        guard let executable = arguments.first else { throw FixtureFailure("no command to run") }
        let directory = try makeDirectory(prefix: "fixture-tool")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = "\(directory)/output"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = environment }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        defer { try? handle.close() }
        try spawn(process)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw FixtureFailure("\(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text.suffix(2_000))")
        }
        return text
    }
}
