import Testing
import Tracing
import W3CTraceContext

@testable import TraceExport

/// The tracer's ids, parents, sampling and W3C propagation, without an exporter (spans end into its queue).
@Suite("Tracing: the worker's tracer")
struct BatchingTracerTests {
    static func tracer(_ sampler: HeadSampler = HeadSampler(parentBased: true, ratio: 1)) -> BatchingTracer {
        BatchingTracer(queue: SpanQueue(capacity: 100, batchSize: 10), sampler: sampler)
    }

    struct Headers: Extractor, Injector {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) { carrier[key] = value }
    }

    @Test func aChildContinuesItsParentsTraceAndNamesItsSpan() throws {
        let tracer = Self.tracer()
        let parent = tracer.startSpan("parent", context: .topLevel, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        let child = tracer.startSpan("child", context: parent.context, ofKind: .client, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        child.attributes["http.response.status_code"] = 200
        child.setStatus(SpanStatus(code: .ok))
        child.setStatus(SpanStatus(code: .error, message: "later"))
        child.end()
        child.end()
        parent.end()
        let ended = tracer.queue.take(upTo: 10)
        #expect(ended.map(\.name) == ["child", "parent"], "each span queued once, when it ends")
        let (childSpan, parentSpan) = (ended[0], ended[1])
        #expect(childSpan.context.traceID == parentSpan.context.traceID)
        #expect(childSpan.parentSpanID == parentSpan.context.spanID)
        #expect(parentSpan.parentSpanID == nil)
        #expect(childSpan.kind == .client)
        #expect(childSpan.attributes["http.response.status_code"] == .int64(200))
        #expect(childSpan.status?.code == .ok, "ok is final")
        #expect(childSpan.endNanoseconds >= childSpan.startNanoseconds)
    }

    /// A span without a parent starts the trace its context names (the one the worker sampled on); a parent's
    /// trace still wins over it, and without either a fresh id is minted.
    @Test func aSpanWithoutAParentStartsTheTraceItsContextNames() throws {
        let tracer = Self.tracer()
        let decided = try TraceContext(traceParentHeaderValue: "00-0123456789abcdef0123456789abcdef-0123456789abcdef-01").traceID
        var context = ServiceContext.topLevel
        context.startingTraceID = decided
        let started = tracer.startSpan("process", context: context, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(started.context.spanContext?.trace.traceID == decided)
        let child = tracer.startSpan("child", context: started.context, ofKind: .client, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(child.context.spanContext?.trace.traceID == decided)

        var remote = context
        tracer.extract(["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"], into: &remote, using: Headers())
        let continued = tracer.startSpan("process", context: remote, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(continued.context.spanContext?.trace.traceID.description == "4bf92f3577b34da6a3ce929d0e0e4736")

        let fresh = tracer.startSpan("process", context: .topLevel, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(fresh.context.spanContext?.trace.traceID != decided)
    }

    @Test func aRemoteParentIsContinuedAndItsFlagDecidesUnderParentBasedSampling() throws {
        let tracer = Self.tracer()
        for (flags, recorded) in [("01", true), ("00", false)] {
            var context = ServiceContext.topLevel
            let incoming = ["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-\(flags)", "tracestate": "vendor=a"]
            tracer.extract(incoming, into: &context, using: Headers())
            let span = tracer.startSpan("process", context: context, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
            #expect(span.isRecording == recorded)
            var outgoing: [String: String] = [:]
            tracer.inject(span.context, into: &outgoing, using: Headers())
            let written = try TraceContext(traceParentHeaderValue: try #require(outgoing["traceparent"]), traceStateHeaderValue: outgoing["tracestate"])
            #expect(written.traceID.description == "4bf92f3577b34da6a3ce929d0e0e4736")
            #expect(written.spanID.description != "00f067aa0ba902b7", "the outgoing context names this span")
            #expect(written.flags.contains(.sampled) == recorded)
            #expect(outgoing["tracestate"] == "vendor=a")
            span.end()
        }
        #expect(tracer.queue.take(upTo: 10).count == 1, "the unsampled span is not queued")
    }

    @Test func aRatioOfZeroRecordsNoRootAndAnUnreadableParentStartsANewTrace() {
        let none = Self.tracer(HeadSampler(parentBased: false, ratio: 0))
        let root = none.startSpan("root", context: .topLevel, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(!root.isRecording)
        let child = none.startSpan("child", context: root.context, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(!child.isRecording, "a child follows its local parent's decision")

        let tracer = Self.tracer()
        var context = ServiceContext.topLevel
        tracer.extract(["traceparent": "not a traceparent"], into: &context, using: Headers())
        #expect(context.spanContext == nil)
        let fresh = tracer.startSpan("fresh", context: context, ofKind: .internal, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(fresh.isRecording)
    }

    /// With the worker's own sampler bootstrapped the tracer must not decide again: every span it is asked for
    /// records, whatever the trace id or the incoming flag (the worker already decided on them). A second ratio
    /// decision on a trace id of the tracer's own sampled 1 % of requests at a 0.1 ratio.
    @Test func afterTheWorkersDecisionTheTracerRecordsWhatItIsAskedFor() {
        let decided = Self.tracer(HeadSampler.tracerSampler(given: HeadSampler(parentBased: false, ratio: 0.1)))
        let roots = (0..<1_000).map { _ in
            decided.startSpan("process", context: .topLevel, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        }
        #expect(roots.filter(\.isRecording).count == roots.count)
        var context = ServiceContext.topLevel
        decided.extract(["traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"], into: &context, using: Headers())
        let continued = decided.startSpan("process", context: context, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(continued.isRecording, "traceidratio ignores the flag, and the worker chose to trace this request")

        let undecided = Self.tracer(HeadSampler.tracerSampler(given: nil))
        let followed = undecided.startSpan("process", context: context, ofKind: .consumer, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        #expect(!followed.isRecording, "without a head sampler: parentbased_always_on follows the flag")
    }
}
