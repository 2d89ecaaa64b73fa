import Foundation
import Glibc
import Synchronization

/// Why a network authentication fixture could not start: what failed, with the child's output when there
/// is one.
package struct NetworkAuthFixtureFailure: Error, CustomStringConvertible {
    package var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Finding the servers' programs, free ports, directories, and running one-shot tools (openssl, kadmin).
package enum NetworkAuthTools {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources").path

    /// Set by scripts/test: these tests must run (and fail when a tool is missing), not be skipped.
    package static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    /// Whether a test needing these programs should run: they are all there, or they are required.
    package static func available(_ names: String...) -> Bool {
        interopRequired || names.allSatisfy { find($0) != nil }
    }

    /// The program's path on PATH or in the sbin directories (nginx, apache2 and krb5kdc live there).
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let directories = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/local/sbin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The program's path, or an error that says how to install it.
    static func require(_ name: String) throws -> String {
        guard let path = find(name) else {
            throw NetworkAuthFixtureFailure("'\(name)' is not installed (scripts/setup-deps installs it)")
        }
        return path
    }

    /// Whether an Apache module is installed (Debian's `libapache2-mod-*` packages).
    package static func apacheModuleInstalled(_ file: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(apacheModules)/\(file)")
    }

    static let apacheModules = "/usr/lib/apache2/modules"

    /// The Python with the interop requirements: `QUERY_WORKER_PYTHON` (scripts/test sets it), else the
    /// repository's `.venv`.
    package static var python: String? {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Tests run as root in containers: servers then drop to another user, who must read the fixture files.
    static var runningAsRoot: Bool { geteuid() == 0 }

    /// A loopback port free right now (bound to port 0, read back, released).
    static func unusedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw NetworkAuthFixtureFailure("socket() failed: errno \(errno)") }
        defer { _ = Glibc.close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(socket, pointer, length) == 0 && getsockname(socket, pointer, &length) == 0
            }
        }
        guard bound else { throw NetworkAuthFixtureFailure("bind() on 127.0.0.1 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` now.
    static func isListening(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { _ = Glibc.close(socket) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// A fresh directory under the temporary directory, readable by everyone (servers that drop root run
    /// as another user).
    static func makeDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("netauth-\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }

    /// Writes a text file readable by everyone, creating its folder.
    static func write(_ text: String, to path: String) throws {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    }

    /// Starts the process from a thread whose signal mask is empty: a child inherits the spawning thread's
    /// mask, and Swift concurrency's threads block most signals, so a server started from one would never
    /// see the signal that stops it.
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

    /// Runs a one-shot tool to completion (killed after `timeout`) and returns its standard output; throws
    /// with its output when it fails. Waits with `Task.sleep`, never blocking a cooperative thread.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(60)
    ) async throws -> String {
        guard let executable = arguments.first else { throw NetworkAuthFixtureFailure("no command to run") }
        let directory = try makeDirectory(prefix: "tool")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = "\(directory)/output", errors = "\(directory)/errors"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let outputHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        process.standardInput = FileHandle.nullDevice
        try spawn(process)
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            throw NetworkAuthFixtureFailure("\(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(stderr.suffix(2_000))")
        }
        return text
    }
}

/// What the fixtures' servers proxy: every request under one of ``paths`` goes to the same path and query on
/// ``origin``, with the front's `Host` (so an upstream that builds links from it, like the sample server's OGC
/// face, links back through the front) and without the front's `Authorization`.
package struct NetworkAuthUpstream: Sendable {
    /// The sample feature server's paths: ArcGIS REST, OGC API Features and its quirk modes, and a plain prefix.
    package static let defaultPaths = ["/upstream/", "/arcgis/", "/ogc/", "/ogc-quirks/"]

    /// `http://host:port`, without a path.
    package let origin: String
    /// Path prefixes, each starting and ending with `/`.
    package let paths: [String]

    /// Fails (a fixture failure) when `origin` has a path or `paths` are not `/.../`.
    package init(origin: String, paths: [String] = defaultPaths) throws {
        let trimmed = origin.hasSuffix("/") ? String(origin.dropLast()) : origin
        guard let url = URL(string: trimmed), url.scheme == "http" || url.scheme == "https", url.host != nil, url.path.isEmpty else {
            throw NetworkAuthFixtureFailure("the upstream must be an origin like http://127.0.0.1:8080, not '\(origin)'")
        }
        guard paths.allSatisfy({ $0.hasPrefix("/") && $0.hasSuffix("/") && !$0.contains(" ") }) else {
            throw NetworkAuthFixtureFailure("proxied paths must start and end with '/': \(paths)")
        }
        self.origin = trimmed
        self.paths = paths
    }
}

