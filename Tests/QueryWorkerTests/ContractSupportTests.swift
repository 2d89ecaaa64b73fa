import FeatureGeometry
import FeatureQuerySupport
import Foundation
import QueryLanguage
import RequestFuzzing
import Testing

@testable import QueryWorker

/// Locating the contract's files and running its Python schema validator, for the Contract suites.
///
/// The validator is `docs/contract/tools/validate.py`, run with the Python of `QUERY_WORKER_PYTHON` or the
/// repository's `.venv` (scripts/setup-deps installs jsonschema there). Without it the schema tests are
/// skipped, unless `QUERY_WORKER_REQUIRE_INTEROP=1` (scripts/test sets it): then they fail.
enum ContractSupport {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let contractDirectory = repositoryRoot.appendingPathComponent("docs/contract")
    static let validator = contractDirectory.appendingPathComponent("tools/validate.py").path

    static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    static var python: String? {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// Whether the schema tests run: Python with jsonschema is there, or its absence must fail the run.
    static let schemaTestsEnabled: Bool = {
        if interopRequired { return true }
        guard let python else { return false }
        return (try? run(python, ["-c", "import jsonschema, referencing, rfc3339_validator"]).status) == 0
    }()

    /// A decoder with the built-in named queries (government, residential, ...), checking credential names
    /// as a worker with `credentials` does (by default one without a credentials file).
    static func decoder(
        limits: RequestLimits = RequestLimits(), allowFreeClauses: Bool = true,
        credentials: CredentialNames = .noCredentialsFile
    ) throws -> RequestDecoder {
        RequestDecoder(
            namedQueries: try NamedQueryCatalog(allowFreeClauses: allowFreeClauses), limits: limits, credentials: credentials)
    }

    /// The example files, by name.
    static func examples(prefix: String) throws -> [(name: String, bytes: [UInt8])] {
        let directory = contractDirectory.appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasPrefix(prefix + "-") && $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
        }
    }

    struct Verdict: Sendable {
        var valid: Bool
        var errors: [String]
    }

    /// Validates every document against its schema in one Python run; the verdicts are in input order.
    static func validate(_ documents: [(schema: String, bytes: [UInt8])]) throws -> [Verdict] {
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
        let output = try run(python, [validator, "--manifest", manifestFile.path], timeout: 300)
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

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs a program to completion (killed after `timeout` seconds).
    static func run(_ executable: String, _ arguments: [String], timeout: Double = 60) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let files = try ProcessOutputFiles(for: process)
        defer { files.remove() }
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: files.stdout, stderr: files.stderr)
    }

    /// A JSON value as bytes, for building messages in tests.
    static func json(_ value: ParsedJSON) -> [UInt8] {
        var writer = JSONWriter(capacity: 0)
        writer.value(value)
        return writer.bytes
    }
}

struct ContractTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
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

extension ContractSupport {
    /// Checks the decoder's answers against the contract's schema, message by message: what it accepts is
    /// schema-valid, and what the schema accepts it refuses only with a code a schema cannot check (a
    /// credential, a named query, a where clause, a host). Returns how many messages the decoder accepted.
    static func expectSchemaAgreement(_ documents: [(schema: String, bytes: [UInt8])], _ answers: [IncomingMessage]) throws -> Int {
        let verdicts = try validate(documents)
        var accepted = 0
        for (index, verdict) in verdicts.enumerated() {
            let text = String(decoding: documents[index].bytes.prefix(2_000), as: UTF8.self)
            switch answers[index] {
            case .query, .cancel:
                accepted += 1
                #expect(verdict.valid, "accepted but schema-invalid: \(text)\n\(verdict.errors)")
            case .rejected(let rejection):
                if verdict.valid {
                    #expect(RequestFuzzOracle.workerOnlyCodes.contains(rejection.code.rawValue), "schema-valid but \(rejection): \(text)")
                }
            }
        }
        return accepted
    }
}
