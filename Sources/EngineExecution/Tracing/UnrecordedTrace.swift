package import Tracing

/// The context of work done for a request whose span does not record: the sampler dropped it (most requests
/// of a worker sampling, say, 10%), or no tracer is bootstrapped (the NoOp tracer). Its layer and HTTP client
/// spans are then not started at all (``EngineSpans/layer(_:engine:errorCode:_:)``,
/// ``CurlHTTP/HTTPClient/tracedExecute(_:)``): no span object, no ids, no sampling decision, no task-local
/// context per layer, so an unsampled request costs one span (its own) rather than one per layer and page.
///
/// Nothing is lost: OpenTelemetry's samplers decide a child as its parent was decided (parent-based samplers
/// follow the parent's flag; a trace-id ratio decides the same trace id the same way), so these children would
/// not record either. Work outside any request's context (a credential service's token call, the engines used
/// on their own) carries no mark and starts its spans as before.
package enum UnrecordedTrace {
    /// The context a request whose span does not record runs its work in: it marks that span's children as
    /// unrecorded. The same value for every such request (no per-request context is built).
    package static let context: ServiceContext = {
        var context = ServiceContext.topLevel
        context[Key.self] = true
        return context
    }()

    /// Whether the current task runs for a request whose span does not record (see ``context``).
    package static var isCurrent: Bool {
        ServiceContext.current?[Key.self] == true
    }

    private enum Key: ServiceContextKey {
        typealias Value = Bool
        static var nameOverride: String? { "query_worker.unrecorded" }
    }
}
