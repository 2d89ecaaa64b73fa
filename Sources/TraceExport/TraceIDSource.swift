import FeatureQuerySupport
import Synchronization
package import W3CTraceContext

/// Where the trace and span ids the worker mints come from: SplitMix64, seeded once per process from the
/// system's generator.
///
/// Why not `TraceID.random()`: it draws from `SystemRandomNumberGenerator`, a `getrandom(2)` system call per
/// id, two per request that arrives without a trace (about 2 % of the worker's CPU per `count` request in the
/// profile). W3C Trace Context asks for ids that are unique and random-looking, not unpredictable; OpenTelemetry's
/// SDKs seed a fast generator the same way. Distinct processes start from distinct seeds.
package enum TraceIDSource {
    private static let generator = Mutex(SplitMix64(seed: UInt64.random(in: .min ... .max)))

    package static func traceID() -> TraceID {
        generator.withLock { TraceID.random(using: &$0) }
    }

    package static func spanID() -> SpanID {
        generator.withLock { SpanID.random(using: &$0) }
    }
}
