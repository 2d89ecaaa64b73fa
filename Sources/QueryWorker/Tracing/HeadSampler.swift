import Synchronization
package import W3CTraceContext

/// Which requests get a recorded trace, decided by the worker before it asks the tracer for a span.
///
/// Why not leave it to the tracer's sampler: swift-otel 1.6.0 hands every span's start and end to a task of
/// its own through an `AsyncStream`, sampled or not, a wake of a pool thread each; a request the sampler then
/// drops still cost about 30 µs at a 0.1 ratio, 40 % of the worker's CPU per `count` request (docs/performance,
/// "Operations cost"). The batch span processor's settings do not reach that hand-off, and its processor
/// protocol is internal. So the executable that bootstraps swift-otel sets its sampler to `always_on` and gives
/// the worker this one: a request it does not sample gets the no-tracer path (a non-recording span, no child
/// spans, the W3C context written on its outcomes by the worker with the sampled flag off), and swift-otel
/// sees only the requests it records.
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

    private static let installed = Mutex<HeadSampler?>(nil)

    /// The sampler of every worker made from now on (nil: every span goes to the tracer, which samples). Set
    /// once at start by the executable that bootstraps the tracer, before any worker is made, as
    /// `InstrumentationSystem.bootstrap` is.
    package static func bootstrap(_ sampler: HeadSampler?) {
        installed.withLock { $0 = sampler }
    }

    static var current: HeadSampler? { installed.withLock { $0 } }
}
