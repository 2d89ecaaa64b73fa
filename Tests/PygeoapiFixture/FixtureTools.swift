import ChildProcessFixture
import Foundation

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
    static var python: String? { ChildProcesses.python }

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

    static func unusedPort() throws -> Int { try ChildProcesses.unusedPort() }

    /// A fresh directory under the temporary directory, readable by everyone (postgres runs as another user).
    static func makeDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return path
    }

    /// Runs a one-shot tool to completion with exactly `environment` (or this process's) and returns its output.
    @discardableResult
    static func run(
        _ arguments: [String], environment: [String: String]? = nil, timeout: Duration = .seconds(120)
    ) async throws -> String {
        try await ChildProcesses.run(arguments, environment: environment.map { .replaced($0) } ?? .inherited, timeout: timeout)
    }
}
