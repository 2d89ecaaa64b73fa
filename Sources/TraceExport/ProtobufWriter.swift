/// Protocol Buffers' wire format, the part OTLP's trace messages use: varints, fixed 64- and 32-bit numbers and
/// length-delimited fields (bytes, strings, nested messages).
///
/// Why by hand and not SwiftProtobuf: the exporter writes one message shape (``OTLPTraceRequest``), once per
/// batch, and generated code would bring a dependency and a copy of every span into generated structs first.
/// A nested message is written in place and its length inserted before it when it ends (one move of its
/// bytes), so a batch is one buffer.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    private enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case fixed32 = 5
    }

    private mutating func tag(_ field: UInt32, _ type: WireType) {
        varint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A `uint32`, `uint64`, `bool` or enum field; a negative `int64` as protobuf writes it (ten bytes).
    mutating func varint(_ field: UInt32, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    mutating func int64(_ field: UInt32, _ value: Int64) {
        varint(field, UInt64(bitPattern: value))
    }

    mutating func bool(_ field: UInt32, _ value: Bool) {
        varint(field, value ? 1 : 0)
    }

    mutating func fixed64(_ field: UInt32, _ value: UInt64) {
        tag(field, .fixed64)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func double(_ field: UInt32, _ value: Double) {
        fixed64(field, value.bitPattern)
    }

    mutating func fixed32(_ field: UInt32, _ value: UInt32) {
        tag(field, .fixed32)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func bytes(_ field: UInt32, _ value: some Collection<UInt8>) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: UInt32, _ value: String) {
        var value = value
        value.withUTF8 { bytes(field, $0) }
    }

    /// A nested message: `body` writes its fields, then its length goes in front of them.
    ///
    /// One byte is kept for the length before the body is written: most of a span's messages (each attribute's
    /// `KeyValue` and `AnyValue`) are shorter than 128 bytes, so their length is written in place, with no move of
    /// their bytes and no buffer for the prefix. A longer message (a span, the batch) moves its bytes once to
    /// make room for the rest of its length.
    mutating func message(_ field: UInt32, _ body: (inout ProtobufWriter) -> Void) {
        tag(field, .lengthDelimited)
        let start = bytes.count
        bytes.append(0)
        body(&self)
        let length = UInt64(bytes.count - start - 1)
        guard length >= 0x80 else {
            bytes[start] = UInt8(length)
            return
        }
        var prefix = ProtobufWriter()
        prefix.varint(length)
        bytes[start] = prefix.bytes[0]
        bytes.insert(contentsOf: prefix.bytes.dropFirst(), at: start + 1)
    }
}
