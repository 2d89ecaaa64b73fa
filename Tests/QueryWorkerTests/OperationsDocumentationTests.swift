import FeatureQuerySupport
import Foundation
import Testing

@testable import QueryWorker
import EngineExecution
import WorkerTestSupport
@testable import RequestContract

/// docs/operations.md promises every metric, every log message and every error code with what to do about it;
/// these tests hold it to the sources, so a metric, message or code added without a line there fails here.
@Suite struct OperationsDocumentationTests {
    static func document() throws -> String {
        try String(contentsOf: ContractSupport.repositoryRoot.appendingPathComponent("docs/operations.md"), encoding: .utf8)
    }

    @Test func everyMetricIsDocumented() throws {
        let text = try Self.document()
        let missing = MetricCatalog.all.map(\.name).filter { !text.contains("| `\($0)` |") }
        #expect(missing == [], "metrics without a row in docs/operations.md")
    }

    @Test func everyErrorCodeHasWhatToDo() throws {
        let text = try Self.document()
        let section = try #require(text.range(of: "## Every error code"), "no 'Every error code' section")
        let rows = text[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `") }
        let documented = rows.compactMap { row in row.split(separator: "`").dropFirst().first.map(String.init) }
        let known = ContractError.Code.allKnown.map(\.rawValue)
        #expect(Set(known).subtracting(documented).sorted() == [], "codes without what to do")
        #expect(Set(documented).subtracting(known).sorted() == [], "codes no source mints")
    }

    /// Every log message with a literal text in the worker process's modules (the Kafka clients, the worker,
    /// the engines, the credentials, the HTTP client, the command) is in the document, in backticks.
    @Test func everyLogMessageIsDocumented() throws {
        let text = try Self.document()
        let messages = try Self.logMessages()
        #expect(messages.count >= 60, "found only \(messages.count) messages: has the logging call shape changed?")
        let missing = messages.filter { !text.contains("`\($0)`") }.sorted()
        #expect(missing == [], "log messages docs/operations.md does not list")
    }

    /// The literal messages of `logger.<level>("…"` calls (interpolated ones are left out: the document names
    /// them in words).
    static func logMessages() throws -> Set<String> {
        let modules = [
            "Kafka", "QueryWorker", "ArcGISEngine", "OGCEngine", "Authentication", "CurlHTTP", "EngineExecution",
            "FeatureServiceEngines", "WorkerOperations", "QueryWorkerCommand",
        ]
        let call = #/logger\.(?:trace|debug|info|notice|warning|error|critical)\(\s*"((?:[^"\\]|\\.)*)"/#
        var messages: Set<String> = []
        for module in modules {
            let root = ContractSupport.repositoryRoot.appendingPathComponent("Sources/\(module)")
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in source.matches(of: call) where !match.output.1.contains("\\(") {
                    messages.insert(String(match.output.1))
                }
            }
        }
        return messages
    }
}
