import FeatureQuerySupport
import Testing
import W3CTraceContext

@testable import QueryWorker

/// The outcome's `traceparent`, written straight into bytes, is exactly what W3CTraceContext writes for the
/// same context, and reads back as that context.
@Suite struct TraceParentBytesTests {
    @Test(arguments: [0, 1, 0x0F, 0x10, 0xFF] as [UInt8])
    func theBytesAreTheLibrarysHeaderValue(_ flags: UInt8) throws {
        var random = SplitMix64(seed: UInt64(flags) &+ 7)
        for _ in 0..<200 {
            let traceID = TraceID.random(using: &random)
            let spanID = SpanID.random(using: &random)
            let context = TraceContext(traceID: traceID, spanID: spanID, flags: TraceFlags(rawValue: flags), state: TraceState())
            let bytes = TraceParentBytes.of(context)
            #expect(bytes.count == 55)
            #expect(String(decoding: bytes, as: UTF8.self) == context.traceParentHeaderValue)
            let read = try TraceContext(traceParentHeaderValue: String(decoding: bytes, as: UTF8.self), traceStateHeaderValue: nil)
            #expect(read.traceID == traceID)
            #expect(read.spanID == spanID)
            #expect(read.flags.rawValue == flags)
        }
    }
}
