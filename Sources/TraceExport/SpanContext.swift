package import Tracing
package import W3CTraceContext

/// The W3C context of the span a `ServiceContext` belongs to, as ``BatchingTracer`` keeps it: a span it started
/// (local) or a `traceparent` it extracted from a message (remote). Children of either continue its trace id
/// and follow its sampled flag.
package struct SpanContext: Sendable {
    package var trace: TraceContext
    /// Extracted from a carrier rather than started here: a parent-based sampler decides by its flag.
    package var isRemote: Bool

    package var isSampled: Bool { trace.flags.contains(.sampled) }
}

extension ServiceContext {
    /// The context's span, as ``BatchingTracer`` put it there.
    package var spanContext: SpanContext? {
        get { self[SpanContextKey.self] }
        set { self[SpanContextKey.self] = newValue }
    }
}

extension ServiceContext {
    /// The trace id a span without a parent starts, when the caller already decided the trace's sampling on it
    /// (``HeadSampler``: a request without a `traceparent`). The tracer continues it rather than minting
    /// another, so the exported trace is the one the decision was made on: `TraceIdRatioBased` decides on the
    /// trace id, and every service deciding on the same id must decide alike.
    package var startingTraceID: TraceID? {
        get { self[StartingTraceIDKey.self] }
        set { self[StartingTraceIDKey.self] = newValue }
    }
}

private enum StartingTraceIDKey: ServiceContextKey {
    typealias Value = TraceID
    static var nameOverride: String? { "query_worker.starting_trace_id" }
}

private enum SpanContextKey: ServiceContextKey {
    typealias Value = SpanContext
    static var nameOverride: String? { "query_worker.span_context" }
}
