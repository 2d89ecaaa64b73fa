import Synchronization
package import Tracing
import W3CTraceContext

/// A span of ``BatchingTracer``. While it runs its mutable parts sit behind one lock (tasks of a request may
/// set attributes on it concurrently); ``end(at:)`` turns them into a ``FinishedSpan`` and appends that to the
/// tracer's ``SpanQueue``: no task is woken, no actor is entered, per span.
///
/// A span the sampler drops still has its W3C context (so an outcome names it with the sampled flag off) but
/// records nothing and is never queued.
package final class RecordedSpan: AttributeListSpan {
    package let context: ServiceContext
    package let isRecording: Bool
    private let traceContext: TraceContext
    private let parentSpanID: SpanID?
    private let kind: SpanKind
    private let startNanoseconds: UInt64
    private let queue: SpanQueue?
    private let state: Mutex<State>

    private struct State {
        var name: String
        /// The attributes, in the order set (``SpanAttributeList``); room for the worker's spans' (up to 9), so
        /// setting them never regrows the list.
        var attributes: SpanAttributeList = {
            var attributes = SpanAttributeList()
            attributes.reserveCapacity(10)
            return attributes
        }()
        var events: [SpanEvent] = []
        var links: [FinishedLink] = []
        var status: SpanStatus?
        var ended = false
    }

    init(
        name: String, context: ServiceContext, traceContext: TraceContext, parentSpanID: SpanID?, kind: SpanKind,
        startNanoseconds: UInt64, queue: SpanQueue?
    ) {
        self.context = context
        self.isRecording = queue != nil
        self.traceContext = traceContext
        self.parentSpanID = parentSpanID
        self.kind = kind
        self.startNanoseconds = startNanoseconds
        self.queue = queue
        self.state = Mutex(State(name: name))
    }

    package var operationName: String {
        get { state.withLock { $0.name } }
        set { guard isRecording else { return }; state.withLock { $0.name = newValue } }
    }

    /// As swift-distributed-tracing's set, made from the list on each read (the worker's code never reads it).
    package var attributes: SpanAttributes {
        get { state.withLock { $0.attributes.spanAttributes } }
        set { guard isRecording else { return }; state.withLock { $0.attributes = SpanAttributeList(newValue) } }
    }

    /// One lock for the whole update, through swift-distributed-tracing's set: what the worker's own code sets
    /// goes through ``appendAttributes(_:)`` instead, without one.
    package func updateAttributes(_ update: (inout SpanAttributes) -> Void) {
        guard isRecording else { return }
        state.withLock { state in
            var attributes = state.attributes.spanAttributes
            update(&attributes)
            state.attributes = SpanAttributeList(attributes)
        }
    }

    /// Sets attributes straight into the span's list, under one lock.
    package func appendAttributes(_ write: (inout SpanAttributeList) -> Void) {
        guard isRecording else { return }
        state.withLock { write(&$0.attributes) }
    }

    /// OpenTelemetry's rule: `ok` is final; otherwise the last status set wins.
    package func setStatus(_ status: SpanStatus) {
        guard isRecording else { return }
        state.withLock { state in
            if state.status?.code == .ok { return }
            state.status = status
        }
    }

    package func addEvent(_ event: SpanEvent) {
        guard isRecording else { return }
        state.withLock { $0.events.append(event) }
    }

    /// An `exception` event with OpenTelemetry's `exception.type` and `exception.message`.
    package func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {
        guard isRecording else { return }
        var eventAttributes = attributes
        eventAttributes["exception.type"] = String(reflecting: type(of: error))
        eventAttributes["exception.message"] = String(describing: error)
        addEvent(SpanEvent(name: "exception", at: instant(), attributes: eventAttributes))
    }

    package func addLink(_ link: SpanLink) {
        guard isRecording, let linked = link.context.spanContext else { return }
        state.withLock { $0.links.append(FinishedLink(context: linked.trace, attributes: link.attributes)) }
    }

    /// Queues the span for export, once: a second `end` does nothing.
    package func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        guard let queue else { return }
        let endNanoseconds = instant().nanosecondsSinceEpoch
        let finished: FinishedSpan? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            return FinishedSpan(
                context: traceContext, parentSpanID: parentSpanID, name: state.name, kind: kind,
                startNanoseconds: startNanoseconds, endNanoseconds: endNanoseconds, attributes: state.attributes,
                events: state.events, links: state.links, status: state.status)
        }
        if let finished { queue.append(finished) }
    }
}
