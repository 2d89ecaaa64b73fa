import FeatureGeometry
import FeatureQuerySupport
import Foundation
import JSONLogging
import Logging
import Synchronization
import Testing

/// Lines a handler wrote, kept in memory.
private final class LineCapture: Sendable {
    private let lines = Mutex<[[UInt8]]>([])

    var sink: JSONLogSink { JSONLogSink { line in self.lines.withLock { $0.append(line) } } }
    var raw: [[UInt8]] { lines.withLock { $0 } }
    var text: [String] { raw.map { String(decoding: $0, as: UTF8.self) } }

    func logger(_ label: String = "test", level: Logger.Level = .trace, provider: Logger.MetadataProvider? = nil) -> Logger {
        var logger = Logger(label: label) { JSONLogHandler(label: $0, sink: sink, metadataProvider: provider) }
        logger.logLevel = level
        return logger
    }

    /// Every line parsed; a line that is not one JSON object ending in one newline fails the test.
    func objects(sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: ParsedJSON]] {
        try raw.map { line in
            #expect(line.last == 0x0A, sourceLocation: sourceLocation)
            #expect(line.dropLast().contains(0x0A) == false, "a raw newline inside a line", sourceLocation: sourceLocation)
            let parsed = try ParsedJSON(parsing: line.dropLast())
            guard case .object(let members) = parsed else {
                Issue.record("not an object: \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
                return [:]
            }
            // A second, independent parser must agree that the line is JSON.
            #expect(throws: Never.self, sourceLocation: sourceLocation) {
                _ = try JSONSerialization.jsonObject(with: Data(line))
            }
            return members
        }
    }
}

private struct SampleError: Error, CustomStringConvertible {
    var description: String { "upstream said 401 for https://gis.example.com/arcgis?token=leaked-in-error" }
}

@Suite("JSON log handler: fields, types and escaping")
struct JSONLoggingTests {
    @Test("a line has ts, level, label, message and the metadata as top-level members")
    func fields() throws {
        let capture = LineCapture()
        let before = Date()
        capture.logger("query-worker").info(
            "request done",
            metadata: [
                "requestId": "r-1", "partition": .stringConvertible(3), "offset": .stringConvertible(Int64(1_234_567_890_123)),
                "durationMs": .stringConvertible(12.5), "cancelled": .stringConvertible(false), "count": "7",
                "targets": .array(["a", .stringConvertible(2)]), "error": .dictionary(["code": "timeout", "retry": .stringConvertible(true)]),
            ])
        let line = try #require(try capture.objects().first)
        #expect(line["level"] == .string("info"))
        #expect(line["label"] == .string("query-worker"))
        #expect(line["message"] == .string("request done"))
        #expect(line["requestId"] == .string("r-1"))
        #expect(line["partition"] == .number(3))
        #expect(line["offset"] == .number(1_234_567_890_123))
        #expect(line["durationMs"] == .number(12.5))
        #expect(line["cancelled"] == .bool(false))
        #expect(line["count"] == .string("7"), "a number written as a string stays a string")
        #expect(line["targets"] == .array([.string("a"), .number(2)]))
        #expect(line["meta_error"] == .object(["code": .string("timeout"), "retry": .bool(true)]), "reserved names get a prefix")

        guard case .string(let ts)? = line["ts"] else { throw TimestampError.missing }
        #expect(ts.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil, "\(ts)")
        let parsed = try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: ts))
        #expect(abs(parsed.timeIntervalSince(before)) < 5)
    }

    private enum TimestampError: Error { case missing }

    @Test("metadata merges handler, provider and call, later winning; levels filter")
    func mergingAndLevels() throws {
        let capture = LineCapture()
        let provider = Logger.MetadataProvider { ["workerId": "w-1", "taskId": "from-provider"] }
        var logger = capture.logger(level: .info, provider: provider)
        logger[metadataKey: "taskId"] = "from-handler"
        logger[metadataKey: "component"] = "consumer"
        logger.debug("not written")
        logger.notice("written", metadata: ["taskId": "from-call"])
        let lines = try capture.objects()
        #expect(lines.count == 1)
        #expect(lines.first?["taskId"] == .string("from-call"))
        #expect(lines.first?["workerId"] == .string("w-1"))
        #expect(lines.first?["component"] == .string("consumer"))
        #expect(lines.first?["level"] == .string("notice"))
    }

    @Test("control characters, quotes, backslashes and Unicode survive a round trip", arguments: [
        "quote \" backslash \\ slash /",
        "line\nbreak\r\ntab\tbell\u{07}nul\u{0}esc\u{1B}del\u{7F}",
        "Zürich 東京 🚀 e\u{301} \u{2028}\u{2029} end",
        "",
        String(repeating: "ä\"\\\n", count: 2_000),
    ])
    func escaping(_ text: String) throws {
        let capture = LineCapture()
        capture.logger().warning("\(text)", metadata: ["value": "\(text)", "nested": ["k\"ey\n": "\(text)"]])
        let line = try #require(try capture.objects().first)
        #expect(line["message"] == .string(text))
        #expect(line["value"] == .string(text))
        #expect(line["nested"] == .object(["k\"ey\n": .string(text)]))
        let raw = try #require(capture.raw.first)
        #expect(!raw.dropLast().contains { $0 < 0x20 || $0 == 0x7F }, "control bytes are escaped")
        #expect(!capture.text[0].contains("\u{2028}"))
    }

    @Test("the error of an event is written, redacted")
    func errorField() throws {
        let capture = LineCapture()
        capture.logger().error("query failed", error: SampleError())
        let line = try #require(try capture.objects().first)
        #expect(line["error"] == .string("upstream said 401 for https://gis.example.com/arcgis?token=<redacted>"))
        #expect(!capture.text[0].contains("leaked-in-error"))
    }

    @Test("NaN and infinity, which JSON can't hold, are written as strings")
    func nonFiniteNumbers() throws {
        let capture = LineCapture()
        capture.logger().info("x", metadata: ["nan": .stringConvertible(Double.nan), "inf": .stringConvertible(Float.infinity)])
        let line = try #require(try capture.objects().first)
        #expect(line["nan"] == .string("nan"))
        #expect(line["inf"] == .string("inf"))
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
