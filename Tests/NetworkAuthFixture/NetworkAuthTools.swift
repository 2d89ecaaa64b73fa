import ChildProcessFixture
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
    package static var python: String? { ChildProcesses.python }

    /// Tests run as root in containers: servers then drop to another user, who must read the fixture files.
    static var runningAsRoot: Bool { geteuid() == 0 }

    static func unusedPort() throws -> Int { try ChildProcesses.unusedPort() }

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


    /// Runs a one-shot tool to completion with `environment` added to this process's and returns its output.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(60)
    ) async throws -> String {
        try await ChildProcesses.run(arguments, environment: environment.map { .adding($0) } ?? .inherited, timeout: timeout)
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

