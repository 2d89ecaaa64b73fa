import EngineExecution
import Kafka
import Synchronization
import TraceExport
import Tracing
import W3CTraceContext

/// One request message's trace: its consumer span (from the message's arrival to its outcome's delivery) and
/// the headers every outcome message of it carries.
///
/// The outcome's `traceparent` is the request span's context as the bootstrapped tracer injects it
/// (TraceExport's: the span's own ids, for sampled and unsampled spans alike). When no tracer writes one (no
/// tracer bootstrapped, a request the worker's own sampler dropped, or a test's in-memory tracer, whose keys are
/// not W3C's), ``fallback`` does: the incoming trace id continued (or a new one), a span id minted for this
/// request, the incoming flags and `tracestate`. So propagation works with or without an exporter. That context
/// is made only when an outcome needs it, and then once, so every outcome of the request names the same span.
/// Correlation headers of request/reply frameworks (``WorkerTracing/echoedHeaders``) are copied byte for byte.
///
/// Carried in ``MessageSource`` so every answer (result, error, rejection, supersession) finds it. Identity is
/// its equality: two sources are the same message's only if they share the trace made when it was read.
final class RequestTrace: Sendable, Hashable {
    let span: any Span
    /// The request message's readable W3C context, if it had one: what ``fallback`` continues.
    private let incoming: TraceContext?
    private let madeFallback = Mutex<TraceContext?>(nil)
    /// The request's correlation headers, echoed on its outcomes.
    let echoed: [KafkaHeader]

    /// For a request the worker's own sampler dropped (``HeadSampler``): the trace id it starts when the message
    /// carried none, and the sampled flag cleared on its outcomes.
    private let unsampled: (newTraceID: TraceID?, flags: TraceFlags)?

    init(span: any Span, incoming: TraceContext?, echoed: [KafkaHeader]) {
        self.span = span
        self.incoming = incoming
        self.echoed = echoed
        self.unsampled = nil
    }

    /// A request the worker's sampler dropped: no tracer span (a non-recording one, without context, so the
    /// tracer injects nothing); its outcomes carry the incoming trace continued, or `newTraceID`, with the
    /// sampled flag off.
    init(unsampled incoming: TraceContext?, newTraceID: TraceID, echoed: [KafkaHeader]) {
        self.span = NoOpTracer.NoOpSpan(context: .topLevel)
        self.incoming = incoming
        self.echoed = echoed
        var flags = incoming?.flags ?? TraceFlags()
        flags.remove(.sampled)
        self.unsampled = (incoming == nil ? newTraceID : nil, flags)
    }

    /// The W3C context outcomes carry when the tracer injects none: the incoming trace id continued (or a new
    /// one), a span id minted for this request, the incoming flags and state. Made on first use, then the same.
    var fallback: TraceContext {
        madeFallback.withLock { made in
            if let made { return made }
            let context = TraceContext(
                traceID: incoming?.traceID ?? unsampled?.newTraceID ?? TraceIDSource.traceID(), spanID: TraceIDSource.spanID(),
                flags: unsampled?.flags ?? incoming?.flags ?? .sampled, state: incoming?.state ?? TraceState())
            made = context
            return context
        }
    }

    /// The trace headers and echoed correlation headers of this request's outcome messages.
    func outcomeHeaders() -> [KafkaHeader] {
        var headers: [KafkaHeader] = []
        headers.reserveCapacity(2 + echoed.count)
        InstalledTracer.inject(span.context, into: &headers, using: KafkaHeaderInjector())
        if !headers.contains(where: { $0.key == WorkerTracing.traceParent }) {
            headers.append(KafkaHeader(key: WorkerTracing.traceParent, value: TraceParentBytes.of(fallback)))
            if let state = fallback.traceStateHeaderValue {
                headers.append(KafkaHeader(key: WorkerTracing.traceState, string: state))
            }
        }
        headers.append(contentsOf: echoed)
        return headers
    }

    /// `messages` with this request's outcome headers added (every part of a split result carries them).
    func stamp(_ messages: [KafkaProducerMessage]) -> [KafkaProducerMessage] {
        let headers = outcomeHeaders()
        return messages.map { message in
            var message = message
            message.headers.append(contentsOf: headers)
            return message
        }
    }

    /// Runs `body` with the request span as the current context: runs started there (a task inherits it) make
    /// their layer and HTTP spans children of this request's span. When the span does not record (not sampled,
    /// or the NoOp tracer), the context is ``EngineExecution/UnrecordedTrace``'s instead: those children would
    /// not record either, so they are not started.
    func withContext<T>(_ body: () throws -> T) rethrows -> T {
        try ServiceContext.withValue(span.isRecording ? span.context : UnrecordedTrace.context, operation: body)
    }

    static func == (lhs: RequestTrace, rhs: RequestTrace) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
