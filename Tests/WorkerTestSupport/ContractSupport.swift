package import ChildProcessFixture
import FeatureGeometry
package import FeatureQuerySupport
package import Foundation
import QueryLanguage
import QueryWorker
import Testing
package import RequestContract

/// Locating the contract's files and running its Python schema validator, for the Contract suites.
///
/// The validator is `docs/contract/tools/validate.py`, run with the Python of `QUERY_WORKER_PYTHON` or the
/// repository's `.venv` (scripts/setup-deps installs jsonschema there). Without it the schema tests are
/// skipped, unless `QUERY_WORKER_REQUIRE_INTEROP=1` (scripts/test sets it): then they fail.
package enum ContractSupport {
    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let contractDirectory = repositoryRoot.appendingPathComponent("docs/contract")
    package static let validator = contractDirectory.appendingPathComponent("tools/validate.py").path

    package static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    package static var python: String? { ChildProcesses.python }

    /// Whether the schema tests run: Python with jsonschema is there, or its absence must fail the run.
    package static let schemaTestsEnabled: Bool = {
        if interopRequired { return true }
        guard let python else { return false }
        return (try? runBlocking(python, ["-c", "import jsonschema, referencing, rfc3339_validator"]).status) == 0
    }()

    /// A decoder with the built-in named queries (government, residential, ...), checking credential names
    /// as a worker with `credentials` does (by default one without a credentials file), within `limits` (by
    /// default the decoder's own: their initializer is the worker's, not `package`).
    package static func decoder(
        limits: RequestLimits? = nil, allowFreeClauses: Bool = true,
        credentials: CredentialNames = .noCredentialsFile
    ) throws -> RequestDecoder {
        let namedQueries = try NamedQueryCatalog(allowFreeClauses: allowFreeClauses)
        guard let limits else { return RequestDecoder(namedQueries: namedQueries, credentials: credentials) }
        return RequestDecoder(namedQueries: namedQueries, limits: limits, credentials: credentials)
    }

    /// The example files, by name.
    package static func examples(prefix: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = contractDirectory.appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(prefix + "-") && $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    package struct Verdict: Sendable {
        package var valid: Bool
        package var errors: [String]
    }

    /// Validates every document against its schema in one Python run; the verdicts are in input order.
    package static func validate(_ documents: [(schema: String, bytes: [UInt8])]) async throws -> [Verdict] {
        let python = try #require(python, "no Python: run scripts/setup-deps, or set QUERY_WORKER_PYTHON")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var manifest = ""
        for (index, document) in documents.enumerated() {
            let file = directory.appendingPathComponent("\(index).json")
            try Data(document.bytes).write(to: file)
            manifest += "\(document.schema)\t\(file.path)\n"
        }
        let manifestFile = directory.appendingPathComponent("manifest.tsv")
        try Data(manifest.utf8).write(to: manifestFile)
        let output = try await run(python, [validator, "--manifest", manifestFile.path], timeout: 300)
        try #require(output.status == 0, "validate.py failed: \(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        try #require(lines.count == documents.count, "validate.py answered \(lines.count) of \(documents.count): \(output.stderr)")
        return try lines.map { line in
            let verdict = try ParsedJSON(parsing: String(line))
            guard case .bool(let valid)? = verdict["valid"], case .array(let errors)? = verdict["errors"] else {
                throw ContractTestFailure("unexpected validator output: \(line)")
            }
            return Verdict(valid: valid, errors: errors.compactMap { if case .string(let text) = $0 { text } else { nil } })
        }
    }

    package typealias Output = ChildOutput

    /// Runs a program to completion (killed after `timeout` seconds). Waits with `Task.sleep`, never blocking a
    /// cooperative thread: the contract suites run beside the worker's timing-sensitive suites on two threads, and
    /// a validator run blocking one of them for seconds starved those.
    package static func run(_ executable: String, _ arguments: [String], timeout: Double = 60) async throws -> Output {
        try await ChildProcesses.complete([executable] + arguments, timeout: .seconds(timeout))
    }

    /// ``run(_:_:timeout:)`` blocking its thread: only for the one-time check of a static initialiser (a
    /// fraction of a second), which cannot await.
    static func runBlocking(_ executable: String, _ arguments: [String], timeout: Double = 60) throws -> Output {
        try ChildProcesses.completeBlocking([executable] + arguments, timeout: .seconds(timeout))
    }

    /// A JSON value as bytes, for building messages in tests.
    package static func json(_ value: ParsedJSON) -> [UInt8] {
        var writer = JSONWriter(capacity: 0)
        writer.value(value)
        return writer.bytes
    }
}

package struct ContractTestFailure: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}
