import Testing
import Tracing

@testable import TraceExport

/// Attributes set as a list (the worker's own spans) and through swift-distributed-tracing's set (anyone else's
/// code) end up in one span, each key once.
@Suite("Tracing: span attributes as a list")
struct SpanAttributeListTests {
    @Test func aKeySetAgainReplacesItsValueInPlace() {
        var list = SpanAttributeList()
        list.set("a", "1")
        list.set("b", 2)
        list.set("a", "3")
        list.set("c", true)
        #expect(list.pairs.map(\.key) == ["a", "b", "c"], "in the order first set")
        #expect(list["a"] == .string("3"))
        #expect(list["b"] == .int64(2))
        #expect(list["missing"] == nil)
    }

    @Test func listedAndDictionaryAttributesMeetInTheFinishedSpanEachKeyOnce() {
        let tracer = BatchingTracerTests.tracer()
        let span = tracer.startSpan("s", context: .topLevel, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        let anySpan: any Span = span
        anySpan.setAttributes { attributes in
            attributes.set("messaging.system", "kafka")
            attributes.set("messaging.kafka.offset", 7)
        }
        span.updateAttributes { $0["query_worker.run"] = 3 }
        span.attributes["messaging.kafka.offset"] = 8
        anySpan.setAttributes { $0.set("error.type", "cancelled") }
        #expect(span.attributes["messaging.system"]?.toSpanAttribute() == .string("kafka"), "a list's attribute reads back as a set")
        span.end()
        let finished = tracer.queue.take(upTo: 1)
        let pairs = finished.first?.attributes.pairs ?? []
        #expect(pairs.count == 4, "each key once: \(pairs.map(\.key))")
        let byKey = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(byKey["messaging.system"] == .string("kafka"))
        #expect(byKey["messaging.kafka.offset"] == .int64(8), "the later write wins")
        #expect(byKey["query_worker.run"] == .int64(3))
        #expect(byKey["error.type"] == .string("cancelled"))
    }

    @Test func aSpanThatDoesNotRecordTakesNothing() {
        let tracer = BatchingTracerTests.tracer(HeadSampler(parentBased: true, ratio: 0))
        let span: any Span = tracer.startSpan("s", context: .topLevel, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        var called = false
        span.setAttributes { _ in called = true }
        #expect(!called, "the attributes are not even made")
        #expect(!span.isRecording)
    }
}
