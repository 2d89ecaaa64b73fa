import Synchronization
package import Tracing

/// The tracer the executable bootstrapped, kept where starting a span reads it with one atomic load.
///
/// swift-distributed-tracing's `startSpan` and `InstrumentationSystem.instrument` look the tracer up on every
/// call: a reader lock and a dynamic cast, three spans and two propagations per traced request (the getter
/// alone was 1.6 % of a traced worker's CPU in the profile). The worker's tracer never changes once it is
/// bootstrapped, so the worker's spans start on it directly. Without one (no OTLP endpoint, or a process that
/// bootstrapped another tracer) every call goes to swift-distributed-tracing as before.
package enum InstalledTracer {
    /// Retained for the life of the process once set: the tracer is never replaced or released.
    private static let installed = Atomic<Unmanaged<BatchingTracer>?>(nil)

    /// Bootstraps `tracer` as the process's tracer (`InstrumentationSystem.bootstrap`, once per process) and
    /// keeps it for the calls below. Called at start, before any worker is made.
    package static func bootstrap(_ tracer: BatchingTracer) {
        InstrumentationSystem.bootstrap(tracer)
        installed.store(Unmanaged.passRetained(tracer), ordering: .releasing)
    }

    private static var tracer: BatchingTracer? {
        installed.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// A span started on the bootstrapped tracer (swift-distributed-tracing's `startSpan` otherwise).
    package static func startSpan(
        _ operationName: String, context: @autoclosure () -> ServiceContext = .current ?? .topLevel,
        ofKind kind: SpanKind
    ) -> any Span {
        if let tracer { return tracer.startSpan(operationName, context: context(), ofKind: kind) }
        return Tracing.startSpan(operationName, context: context(), ofKind: kind)
    }

    /// The carrier's trace context into `context`, by the bootstrapped tracer's propagator.
    package static func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        if let tracer { return tracer.extract(carrier, into: &context, using: extractor) }
        InstrumentationSystem.instrument.extract(carrier, into: &context, using: extractor)
    }

    /// `context`'s trace context into the carrier, by the bootstrapped tracer's propagator.
    package static func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        if let tracer { return tracer.inject(context, into: &carrier, using: injector) }
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: injector)
    }
}
