import ChildProcessFixture
import Foundation
import Testing
import Tracing
import W3CTraceContext

@testable import TraceExport

/// The hand-written protobuf of ``OTLPTraceRequest`` decoded by an independent reader: PyPI's
/// opentelemetry-proto (the Python of `QUERY_WORKER_PYTHON`, or the repository's `.venv`), every field the
/// worker writes, including what the end-to-end test's spans do not carry (events, links, status, arrays,
/// negative numbers, doubles, long strings whose lengths take two varint bytes).
@Suite("Tracing: OTLP protobuf against opentelemetry-proto")
struct OTLPTraceRequestTests {
    static let decoder = """
        import json, sys
        from google.protobuf.json_format import MessageToDict
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
        request = ExportTraceServiceRequest()
        request.ParseFromString(open(sys.argv[1], "rb").read())
        print(json.dumps(MessageToDict(request, preserving_proto_field_name=True)))
        """

    @Test(.enabled(if: ChildProcesses.python != nil, "no Python with opentelemetry-proto (scripts/test prepares .venv)"))
    func everyFieldDecodesAsWritten() async throws {
        let python = try #require(ChildProcesses.python)
        let trace = try TraceContext(
            traceParentHeaderValue: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", traceStateHeaderValue: "vendor=a")
        let linked = try TraceContext(traceParentHeaderValue: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
        var attributes = SpanAttributes()
        attributes["text"] = "päge"
        attributes["long"] = String(repeating: "x", count: 300)
        attributes["count"] = -42
        attributes["ratio"] = 0.25
        attributes["flag"] = true
        attributes["names"] = ["a", "b"]
        attributes["numbers"] = [Int64(1), -1]
        let span = FinishedSpan(
            context: trace, parentSpanID: linked.spanID, name: "query layer", kind: .client,
            startNanoseconds: 1_733_500_000_000_000_001, endNanoseconds: 1_733_500_000_500_000_000, attributes: SpanAttributeList(attributes),
            events: [SpanEvent(name: "exception", at: DefaultTracerClock.Instant(nanosecondsSinceEpoch: 7), attributes: ["exception.message": "boom"])],
            links: [FinishedLink(context: linked, attributes: ["why": "retry"])],
            status: SpanStatus(code: .error, message: "timed out"))
        let bytes = OTLPTraceRequest.encode(
            [span, span], resource: TraceResource(serviceName: "svc", attributes: ["service.instance.id": "w-1"]))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("otlp-\(UUID().uuidString).bin")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let output = try await ChildProcesses.run([python, "-c", Self.decoder, file.path])
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let resourceSpans = try #require((decoded["resource_spans"] as? [[String: Any]])?.first)
        let resource = try #require((resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
        let resourceValues = Dictionary(uniqueKeysWithValues: resource.map { ($0["key"] as? String ?? "", ($0["value"] as? [String: Any])?["string_value"] as? String) })
        #expect(resourceValues["service.name"] == "svc")
        #expect(resourceValues["service.instance.id"] == "w-1")
        let scopeSpans = try #require((resourceSpans["scope_spans"] as? [[String: Any]])?.first)
        #expect((scopeSpans["scope"] as? [String: Any])?["name"] as? String == "feature-query-worker")
        let spans = try #require(scopeSpans["spans"] as? [[String: Any]])
        #expect(spans.count == 2)
        let first = spans[0]
        // MessageToDict writes bytes as base64 and 64-bit numbers as strings.
        #expect(first["trace_id"] as? String == Data(hex: "4bf92f3577b34da6a3ce929d0e0e4736").base64EncodedString())
        #expect(first["span_id"] as? String == Data(hex: "00f067aa0ba902b7").base64EncodedString())
        #expect(first["parent_span_id"] as? String == Data(hex: "b7ad6b7169203331").base64EncodedString())
        #expect(first["trace_state"] as? String == "vendor=a")
        #expect(first["name"] as? String == "query layer")
        #expect(first["kind"] as? String == "SPAN_KIND_CLIENT")
        #expect(first["start_time_unix_nano"] as? String == "1733500000000000001")
        #expect(first["end_time_unix_nano"] as? String == "1733500000500000000")
        let status = try #require(first["status"] as? [String: Any])
        #expect(status["code"] as? String == "STATUS_CODE_ERROR")
        #expect(status["message"] as? String == "timed out")
        let values = Dictionary(uniqueKeysWithValues: (first["attributes"] as? [[String: Any]] ?? []).map {
            ($0["key"] as? String ?? "", $0["value"] as? [String: Any] ?? [:])
        })
        #expect(values["text"]?["string_value"] as? String == "päge")
        #expect((values["long"]?["string_value"] as? String)?.count == 300)
        #expect(values["count"]?["int_value"] as? String == "-42")
        #expect(values["ratio"]?["double_value"] as? Double == 0.25)
        #expect(values["flag"]?["bool_value"] as? Bool == true)
        let names = (values["names"]?["array_value"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(names?.compactMap { $0["string_value"] as? String } == ["a", "b"])
        let numbers = (values["numbers"]?["array_value"] as? [String: Any])?["values"] as? [[String: Any]]
        #expect(numbers?.compactMap { $0["int_value"] as? String } == ["1", "-1"])
        let event = try #require((first["events"] as? [[String: Any]])?.first)
        #expect(event["name"] as? String == "exception")
        #expect(event["time_unix_nano"] as? String == "7")
        let link = try #require((first["links"] as? [[String: Any]])?.first)
        #expect(link["trace_id"] as? String == Data(hex: "0af7651916cd43dd8448eb211c80319c").base64EncodedString())
        #expect(((link["attributes"] as? [[String: Any]])?.first?["key"]) as? String == "why")
    }
}

extension Data {
    /// Bytes from lowercase hex (test data only).
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
