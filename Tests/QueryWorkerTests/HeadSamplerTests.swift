import FeatureQuerySupport
import Kafka
import Logging
import Testing
import Tracing
import W3CTraceContext

@testable import QueryWorker
@testable import TraceExport

/// The worker's own sampling (``HeadSampler``): OpenTelemetry's decisions, made before the tracer is asked, and
/// what a dropped request's outcomes still carry.
@Suite("Tracing: head sampling")
struct HeadSamplerTests {
    /// A trace id whose last 8 bytes are `low` (big-endian), the part `TraceIdRatioBased` decides on.
    static func traceID(low: UInt64) -> TraceID {
        let b = withUnsafeBytes(of: low.bigEndian) { Array($0) }
        return TraceID(bytes: (0xAA, 0xBB, 0, 0, 0, 0, 0, 1, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]))
    }

    static func context(sampled: Bool, low: UInt64 = 0) -> TraceContext {
        TraceContext(traceID: traceID(low: low), spanID: SpanID(bytes: (1, 2, 3, 4, 5, 6, 7, 8)), flags: sampled ? .sampled : TraceFlags(), state: TraceState())
    }

    @Test func theRatioDecidesOnTheTraceIdsLastEightBytes() {
        let half = HeadSampler(parentBased: false, ratio: 0.5)
        #expect(half.samples(incoming: nil, newTraceID: Self.traceID(low: 0)))
        #expect(half.samples(incoming: nil, newTraceID: Self.traceID(low: 0x7FFF_FFFF_FFFF_FFFF)))
        #expect(!half.samples(incoming: nil, newTraceID: Self.traceID(low: 0x8000_0000_0000_0000)))
        #expect(!half.samples(incoming: nil, newTraceID: Self.traceID(low: .max)))
        #expect(HeadSampler(parentBased: false, ratio: 1).samples(incoming: nil, newTraceID: Self.traceID(low: .max)))
        #expect(!HeadSampler(parentBased: false, ratio: 0).samples(incoming: nil, newTraceID: Self.traceID(low: 0)))
    }

    @Test func aRatioSamplesAboutThatShareOfNewTraces() {
        var random = SplitMix64(seed: 42)
        let sampler = HeadSampler(parentBased: true, ratio: 0.1)
        let sampled = (0..<100_000).filter { _ in sampler.samples(incoming: nil, newTraceID: TraceID.random(using: &random)) }.count
        #expect((9_000...11_000).contains(sampled), "\(sampled) of 100,000")
    }

    @Test func parentBasedFollowsTheIncomingFlagAndTheRatioAloneIgnoresIt() {
        let parentBased = HeadSampler(parentBased: true, ratio: 0)
        #expect(parentBased.samples(incoming: Self.context(sampled: true), newTraceID: Self.traceID(low: .max)))
        #expect(!HeadSampler(parentBased: true, ratio: 1).samples(incoming: Self.context(sampled: false), newTraceID: Self.traceID(low: 0)))
        // Not parent-based: the incoming trace id decides, whatever its flag.
        let ratio = HeadSampler(parentBased: false, ratio: 0.5)
        #expect(!ratio.samples(incoming: Self.context(sampled: true, low: .max), newTraceID: Self.traceID(low: 0)))
        #expect(ratio.samples(incoming: Self.context(sampled: false, low: 1), newTraceID: Self.traceID(low: .max)))
    }

    /// A request without a trace, sampled by the ratio: the trace the tracer records is the one the decision was
    /// made on (a trace id of the tracer's own would be sampled by downstream ratio samplers independently of
    /// this decision). With ratio 0.5 about half the minted ids pass; every recorded trace must be one of them.
    @Test func aSampledNewTraceIsRecordedUnderTheIdItWasSampledOn() async throws {
        let ratio = 0.5
        let tracing = WorkerTracing(groupID: "g", logger: .init(label: "test"), headSampler: HeadSampler(parentBased: true, ratio: ratio))
        let tracer = BatchingTracer(queue: SpanQueue(capacity: 1_000, batchSize: 100), sampler: HeadSampler.tracerSampler(given: tracing.headSampler))
        let recorded = withTracer(tracer) {
            (0..<200).compactMap { offset -> TraceID? in
                let trace = tracing.begin(KafkaConsumerMessage(topic: "requests", partition: 0, offset: Int64(offset)))
                guard trace.span.isRecording else { return nil }
                return trace.span.context.spanContext?.trace.traceID
            }
        }
        #expect((50...150).contains(recorded.count), "about half of 200 sampled: \(recorded.count)")
        let outsideTheRatio = recorded.filter { !HeadSampler.ratioSamples($0, ratio: ratio) }
        #expect(outsideTheRatio.isEmpty, "recorded under ids the ratio would drop: \(outsideTheRatio.count)")
    }

    @Test func aDroppedRequestHasNoRecordingSpanAndItsOutcomesCarryTheTraceUnsampled() throws {
        let tracing = WorkerTracing(groupID: "g", logger: .init(label: "test"), headSampler: HeadSampler(parentBased: true, ratio: 0))
        // No context on the message: a new trace, not sampled.
        let fresh = tracing.begin(KafkaConsumerMessage(topic: "requests", partition: 0, offset: 1))
        #expect(!fresh.span.isRecording)
        let freshParent = try #require(fresh.outcomeHeaders().first { $0.key == WorkerTracing.traceParent }?.stringValue)
        #expect(freshParent.hasPrefix("00-") && freshParent.hasSuffix("-00"), "\(freshParent)")

        // An unsampled parent: its trace continued, still unsampled, the correlation header echoed.
        let incoming = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00"
        let message = KafkaConsumerMessage(
            topic: "requests", partition: 0, offset: 2,
            headers: [KafkaHeader(key: "traceparent", string: incoming), KafkaHeader(key: "kafka_correlationId", string: "c-1")])
        let continued = tracing.begin(message)
        #expect(!continued.span.isRecording)
        let headers = continued.outcomeHeaders()
        let parent = try #require(headers.first { $0.key == WorkerTracing.traceParent }?.stringValue)
        #expect(parent.hasPrefix("00-0af7651916cd43dd8448eb211c80319c-") && parent.hasSuffix("-00"), "\(parent)")
        #expect(!parent.contains("b7ad6b7169203331"), "the outcome names a span of this worker, not the caller's")
        #expect(headers.contains { $0.key == "kafka_correlationId" && $0.stringValue == "c-1" })
    }
}
