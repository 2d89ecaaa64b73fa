package import Tracing
import W3CTraceContext

/// The worker's tracer: spans with W3C ids, sampled as OpenTelemetry's samplers decide, ended into a
/// ``SpanQueue`` that ``SpanExportService`` sends over OTLP/HTTP in batches. Its propagator is W3C Trace
/// Context's (`traceparent`, `tracestate`).
///
/// Why the worker has its own rather than swift-otel's: swift-otel 1.6.0 (the only release this project can
/// resolve) hands each span's start and end to a task of its own through an `AsyncStream`, and its batch
/// processor takes each ended span through a stream and an actor: a pool thread woken per span. With every span
/// exported that was more than the worker's whole work per `count` request (docs/performance, "Operations
/// cost"), and its processor protocol is internal, so no setting reaches it. Here a span's start is ids and a
/// lock, its end an append; the exporter wakes once per batch.
package final class BatchingTracer: Tracer {
    package typealias Span = RecordedSpan

    let queue: SpanQueue
    /// How a span without a local parent is sampled: by its remote parent's flag (parent-based) or the ratio.
    package let sampler: HeadSampler

    init(queue: SpanQueue, sampler: HeadSampler) {
        self.queue = queue
        self.sampler = sampler
    }

    package func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> ServiceContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RecordedSpan {
        var context = context()
        let parent = context.spanContext
        let traceID = parent?.trace.traceID ?? context.startingTraceID ?? TraceIDSource.traceID()
        let sampled: Bool
        if let parent, !parent.isRemote {
            sampled = parent.isSampled
        } else {
            sampled = sampler.samples(incoming: parent?.trace, newTraceID: traceID)
        }
        var flags = parent?.trace.flags ?? TraceFlags()
        if sampled { flags.insert(.sampled) } else { flags.remove(.sampled) }
        let trace = TraceContext(
            traceID: traceID, spanID: TraceIDSource.spanID(), flags: flags, state: parent?.trace.state ?? TraceState())
        context.spanContext = SpanContext(trace: trace, isRemote: false)
        return RecordedSpan(
            name: operationName, context: context, traceContext: trace, parentSpanID: parent?.trace.spanID, kind: kind,
            startNanoseconds: instant().nanosecondsSinceEpoch, queue: sampled ? queue : nil)
    }

    /// Wakes the exporter to send what is queued.
    package func forceFlush() {
        queue.wake()
    }

    /// A `traceparent` (and its `tracestate`) from the carrier, as a remote parent; an unreadable one is ignored
    /// (the span then starts a new trace).
    package func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let parent = extractor.extract(key: Self.traceParent, from: carrier),
            let trace = try? TraceContext(
                traceParentHeaderValue: parent, traceStateHeaderValue: extractor.extract(key: Self.traceState, from: carrier))
        else { return }
        context.spanContext = SpanContext(trace: trace, isRemote: true)
    }

    /// The context's span as `traceparent` and, when it has one, `tracestate`.
    package func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let span = context.spanContext else { return }
        injector.inject(span.trace.traceParentHeaderValue, forKey: Self.traceParent, into: &carrier)
        if let state = span.trace.traceStateHeaderValue, !state.isEmpty {
            injector.inject(state, forKey: Self.traceState, into: &carrier)
        }
    }

    static let traceParent = "traceparent"
    static let traceState = "tracestate"
}
