import Synchronization
package import W3CTraceContext

/// Which requests get a recorded trace, decided by the worker before it asks the tracer for a span.
///
/// Why not leave it to the tracer's sampler: a request the worker does not sample then gets the no-tracer path
/// (a non-recording span, no child spans, no span object or ids per layer and page, the W3C context written on
/// its outcomes by the worker with the sampled flag off), and the tracer sees only the requests it records
/// (``tracerSampler(given:)``). The same sampler decides spans outside any request in ``BatchingTracer``.
///
/// The decisions are OpenTelemetry's samplers': parent-based (a message's `traceparent` decides by its
/// sampled flag; a message without one by the ratio) or not (the ratio alone, on the trace id), and
/// `TraceIdRatioBased`'s rule, the trace id's last 8 bytes below `ratio × 2⁶⁴`.
package struct HeadSampler: Sendable, Hashable {
    package var parentBased: Bool
    /// From 0 (none) to 1 (every trace).
    package var ratio: Double

    package init(parentBased: Bool, ratio: Double) {
        self.parentBased = parentBased
        self.ratio = min(1, max(0, ratio))
    }

    /// Whether a request whose message carried `incoming` (nil: no readable context) is traced; a request
    /// without a context starts the trace `newTraceID`.
    package func samples(incoming: TraceContext?, newTraceID: TraceID) -> Bool {
        if parentBased, let incoming { return incoming.flags.contains(.sampled) }
        return Self.ratioSamples(incoming?.traceID ?? newTraceID, ratio: ratio)
    }

    /// OpenTelemetry's `TraceIdRatioBased`: the trace id's last 8 bytes, as a big-endian number, below
    /// `ratio × 2⁶⁴`, so every service deciding on one trace id decides alike.
    static func ratioSamples(_ traceID: TraceID, ratio: Double) -> Bool {
        guard ratio < 1 else { return true }
        guard ratio > 0 else { return false }
        let bytes = traceID.bytes
        let low = [bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // ratio < 1, so the bound is below 2⁶⁴ and converts exactly enough.
        return low < UInt64(ratio * 18_446_744_073_709_551_616.0)
    }

    /// The sampler the tracer applies to spans without a local parent, given the worker's own (`nil`: none
    /// bootstrapped). With a head sampler the worker has decided before it asks for a request's span, so the
    /// tracer records what it is asked for (`always_on`, as OpenTelemetry names it): deciding again, on a
    /// trace id of its own, would sample `ratio²` of the requests. Without one, OpenTelemetry's default,
    /// `parentbased_always_on`.
    package static func tracerSampler(given headSampler: HeadSampler?) -> HeadSampler {
        HeadSampler(parentBased: headSampler == nil, ratio: 1)
    }

    private static let installed = Mutex<HeadSampler?>(nil)

    /// The sampler of every worker made from now on (nil: every span goes to the tracer, which samples). Set
    /// once at start by the executable that bootstraps the tracer, before any worker is made, as
    /// `InstrumentationSystem.bootstrap` is.
    package static func bootstrap(_ sampler: HeadSampler?) {
        installed.withLock { $0 = sampler }
    }

    package static var current: HeadSampler? { installed.withLock { $0 } }
}
