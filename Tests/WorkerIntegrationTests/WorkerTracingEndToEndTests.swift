import FeatureQuerySupport
import Foundation
import InMemoryTracing
import Kafka
import Metrics
import MetricsTestKit
import SampleFeatureServer
import Synchronization
import Testing
import Tracing

import QueryWorker
import FeatureGeometry
import WorkerTestSupport

/// Traces across services, end to end (embedded Kafka, the sample server, real sockets): the request's W3C
/// context continued onto its outcomes, correlation ids echoed, and the span tree of a request.
@Suite("Worker tracing end to end")
struct WorkerTracingEndToEndTests {
    static let incomingTrace = "0af7651916cd43dd8448eb211c80319c"
    static let incomingSpan = "b7ad6b7169203331"
    static let traceParent = "00-\(incomingTrace)-\(incomingSpan)-01"

    /// No tracer bootstrapped (the NoOp tracer, as CI and a build without OTLP run): the library's own
    /// propagation continues the caller's trace, echoes `kafka_correlationId` byte for byte, and starts a trace
    /// for a message without context or with a malformed one (counted).
    @Test func outcomesCarryTheRequestsTraceContextAndCorrelationId() async throws {
        let metrics = TestMetrics()
        let harness = try await withMetricsFactory(metrics) { try await WorkerHarness() }
        let url = harness.url(.states)
        let correlation: [UInt8] = [0x00, 0xFF, 0x10, 0x80, 0x7F, 0x01, 0xFE, 0x42]
        try await harness.send(headers: [
            KafkaHeader(key: "traceparent", string: Self.traceParent),
            KafkaHeader(key: "tracestate", string: "congo=t61rcWkgMzE"),
            KafkaHeader(key: "kafka_correlationId", value: correlation),
        ], WorkerHarness.request("continued", url: url, query: #"{"result":"count"}"#))
        try await harness.send(headers: [], WorkerHarness.request("fresh", url: url, query: #"{"result":"count"}"#))
        try await harness.send(headers: [KafkaHeader(key: "traceparent", string: "00-not-a-trace-context")],
                               WorkerHarness.request("malformed", url: url, query: #"{"result":"count"}"#))
        try await harness.send(headers: [KafkaHeader(key: "traceparent", string: Self.traceParent),
                                         KafkaHeader(key: "kafka_correlationId", value: correlation)],
                               "this is not JSON")

        let outcomes = try await harness.outcomeMessages(4)
        let continued = try #require(outcomes["continued"])
        #expect(continued.value.status == "succeeded")
        let parent = try #require(continued.header("traceparent"))
        let parts = parent.split(separator: "-").map(String.init)
        #expect(parts.count == 4)
        #expect(parts.first == "00")
        #expect(parts.dropFirst().first == Self.incomingTrace, "the caller's trace id is continued")
        #expect(parts.dropFirst(2).first != Self.incomingSpan, "the outcome's parent is the worker's span, not the caller's")
        #expect(parts.dropFirst(2).first?.count == 16)
        #expect(parts.last == "01")
        #expect(continued.header("tracestate") == "congo=t61rcWkgMzE")
        #expect(continued.bytes("kafka_correlationId") == correlation)

        let fresh = try #require(outcomes["fresh"])
        let freshTrace = try #require(fresh.header("traceparent")).split(separator: "-").map(String.init)
        #expect(freshTrace.count == 4 && freshTrace[1].count == 32, "a message without context starts a trace")
        #expect(freshTrace.dropFirst().first != Self.incomingTrace)
        #expect(fresh.bytes("kafka_correlationId") == nil)

        let malformed = try #require(outcomes["malformed"])
        let malformedTrace = try #require(malformed.header("traceparent")).split(separator: "-").map(String.init)
        #expect(malformedTrace.count == 4 && malformedTrace[1].count == 32, "a malformed context starts a trace")
        #expect(try metrics.expectCounter("query_worker_trace_context_invalid_total").totalValue == 1)

        let rejected = try #require(outcomes[""], "the rejection of a message that is not JSON")
        #expect(rejected.value.status == "rejected")
        #expect(rejected.header("traceparent")?.contains(Self.incomingTrace) == true)
        #expect(rejected.bytes("kafka_correlationId") == correlation)
        try await harness.stop()
    }

    /// With a tracer (in memory): the tracer's own extraction continues the caller's context (in its keys) and
    /// its injection puts the request span's context on the outcome; one trace, the consumer span parenting the
    /// layer span, which parents the HTTP client spans, with OpenTelemetry's messaging and HTTP attributes and
    /// no full URL.
    @Test func aRequestsSpansFormATree() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            let harness = try await WorkerHarness()
            let query = #"{"where":"POP2000 > 1000000"}"#
            // The caller's context in the tracer's own keys: the tracer's extraction continues it.
            try await harness.send(headers: [
                KafkaHeader(key: InMemoryTracer.traceIDKey, string: "caller-trace"),
                KafkaHeader(key: InMemoryTracer.spanIDKey, string: "caller-span"),
            ], WorkerHarness.request("tree", task: "task-tree", url: harness.url(.states), query: query))
            let outcomes = try await harness.outcomeMessages(1)
            #expect(outcomes["tree"]?.value.status == "succeeded")
            let spans = try await Self.finished(tracer) { $0.contains { $0.kind == .consumer } }
            try await harness.stop()

            let request = try #require(spans.first { $0.kind == .consumer })
            #expect(request.operationName == "process \(harness.settings.topics.requests)")
            #expect(request.traceID == "caller-trace")
            #expect(request.parentSpanID == "caller-span")
            #expect(outcomes["tree"]?.header(InMemoryTracer.traceIDKey) == "caller-trace", "the tracer injected the request span's context")
            #expect(outcomes["tree"]?.header(InMemoryTracer.spanIDKey) == request.spanID)
            #expect(outcomes["tree"]?.header("traceparent") != nil, "W3C context even when the tracer writes none")
            #expect(request.attributes.get("messaging.system") == .string("kafka"))
            #expect(request.attributes.get("messaging.destination.name") == .string(harness.settings.topics.requests))
            #expect(request.attributes.get("messaging.consumer.group.name") == .string(harness.settings.groupID))
            #expect(request.attributes.get("messaging.destination.partition.id") != nil)
            #expect(request.attributes.get("messaging.kafka.offset") != nil)
            #expect(request.attributes.get("query_worker.request_id") == .string("tree"))
            #expect(request.attributes.get("query_worker.task_id") == .string("task-tree"))
            #expect(request.attributes.get("query_worker.outcome.status") == .string("succeeded"))

            let layers = spans.filter { $0.operationName == "query layer" }
            #expect(layers.count == 1)
            let layer = try #require(layers.first)
            #expect(layer.parentSpanID == request.spanID)
            #expect(layer.attributes.get("query_worker.engine") == .string("arcgis"))
            #expect(layer.attributes.get("query_worker.layer.url") == .string(harness.url(.states)))

            let pages = spans.filter { $0.kind == .client }
            #expect(pages.count >= 2, "metadata and at least one query page: \(pages.map(\.operationName))")
            let port = try #require(URLComponents(string: harness.url(.states))?.port)
            for page in pages {
                #expect(page.parentSpanID == layer.spanID)
                #expect(["GET", "POST"].contains(page.operationName))
                #expect(page.attributes.get("http.request.method") == .string(page.operationName))
                #expect(page.attributes.get("server.address") == .string("127.0.0.1"))
                #expect(page.attributes.get("server.port") == .int64(Int64(port)))
                #expect(page.attributes.get("url.scheme") == .string("http"))
                #expect(page.attributes.get("http.response.status_code") == .int64(200))
                #expect(page.attributes.get("url.full") == nil)
            }
            #expect(Set(spans.map(\.traceID)).count == 1, "one trace")
        }
    }

    /// A failing page: its client span says the status as `error.type` and is an error.
    @Test func aFailingPageIsAnErrorSpan() async throws {
        let tracer = InMemoryTracer()
        try await withTracer(tracer) {
            let harness = try await WorkerHarness(faults: [FaultRule(.htmlPage(status: 404), pathContains: "USA/MapServer/2")])
            try await harness.send(headers: [], WorkerHarness.request("missing", url: harness.url(.states)))
            let outcomes = try await harness.outcomeMessages(1)
            #expect(outcomes["missing"]?.value.status == "failed")
            let spans = try await Self.finished(tracer) { $0.contains { $0.kind == .consumer } }
            try await harness.stop()
            let page = try #require(spans.first { $0.kind == .client })
            #expect(page.attributes.get("http.response.status_code") == .int64(404))
            #expect(page.attributes.get("error.type") == .string("404"))
            #expect(page.status?.code == .error)
            let request = try #require(spans.first { $0.kind == .consumer })
            #expect(request.status?.code == .error)
            #expect(request.attributes.get("query_worker.outcome.status") == .string("failed"))
        }
    }

    /// The tracer's finished spans once `ready` says so (the request span ends after its delivery report, a
    /// moment after the outcome can be read), at most 30 s.
    static func finished(
        _ tracer: InMemoryTracer, until ready: ([FinishedInMemorySpan]) -> Bool
    ) async throws -> [FinishedInMemorySpan] {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .seconds(30) {
            let spans = tracer.finishedSpans
            if ready(spans) { return spans }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the spans were not finished in time: \(tracer.finishedSpans.map(\.operationName))")
        return tracer.finishedSpans
    }
}

/// An outcome message as read: its JSON and its headers.
struct OutcomeWithHeaders: Sendable {
    var value: ParsedJSON
    var headers: [KafkaHeader]

    func header(_ key: String) -> String? { headers.last { $0.key == key }?.stringValue }
    func bytes(_ key: String) -> [UInt8]? { headers.last { $0.key == key }?.value }
}

extension WorkerHarness {
    /// Sends one request message with `headers`.
    func send(headers: [KafkaHeader], _ json: String) async throws {
        _ = try await producer.send(KafkaProducerMessage(topic: settings.topics.requests, key: nil, value: json, headers: headers))
    }

    /// Reads `count` outcome messages with their headers, by requestId ("" for none), at most 120 s.
    func outcomeMessages(_ count: Int) async throws -> [String: OutcomeWithHeaders] {
        let read = OutcomesWithHeaders()
        let reader = self.reader
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for try await message in reader.messages {
                    let value = try ParsedJSON(parsing: message.value ?? [])
                    let id: String = if case .string(let id)? = value["requestId"] { id } else { "" }
                    let outcome = OutcomeWithHeaders(value: value, headers: message.headers)
                    if read.byRequest.withLock({ $0[id] = outcome; return $0.count >= count }) { return }
                }
            }
            group.addTask { try await Task.sleep(for: .seconds(120)) }
            try await group.next()
            group.cancelAll()
        }
        let outcomes = read.byRequest.withLock { $0 }
        if outcomes.count < count { Issue.record("\(outcomes.count) of \(count) outcomes arrived: \(outcomes.keys.sorted())") }
        return outcomes
    }
}

/// What ``WorkerHarness/outcomeMessages(_:)`` has read so far, shared with its reading task.
private final class OutcomesWithHeaders: Sendable {
    let byRequest = Mutex<[String: OutcomeWithHeaders]>([:])
}
