import FeatureQuerySupport
import W3CTraceContext

/// A `traceparent` header value (W3C Trace Context, version 00) written straight into its 55 bytes: one
/// allocation per outcome, where `TraceContext.traceParentHeaderValue` makes a string of each id and one of
/// the whole, which the header then copies into bytes.
enum TraceParentBytes {
    /// `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`, lowercase, as the standard writes it.
    static func of(_ context: TraceContext) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(55)
        bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0"), UInt8(ascii: "-")])
        withUnsafeBytes(of: context.traceID.bytes) { ASCII.appendHex($0, to: &bytes) }
        bytes.append(UInt8(ascii: "-"))
        withUnsafeBytes(of: context.spanID.bytes) { ASCII.appendHex($0, to: &bytes) }
        bytes.append(UInt8(ascii: "-"))
        ASCII.appendHex(CollectionOfOne(context.flags.rawValue), to: &bytes)
        return bytes
    }
}
