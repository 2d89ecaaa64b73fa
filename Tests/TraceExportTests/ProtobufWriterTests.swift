import Testing

@testable import TraceExport

/// Nested messages' length prefixes at the sizes where a varint grows (the writer keeps one byte for it and
/// makes room for more only when a message needs them).
@Suite("Tracing: protobuf nested messages")
struct ProtobufWriterTests {
    /// Protobuf's varint, written the plain way.
    static func varint(_ value: Int) -> [UInt8] {
        var value = UInt64(value)
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    @Test(arguments: [0, 1, 124, 125, 126, 127, 128, 300, 16_380, 16_381, 16_383, 16_384, 70_000])
    func aMessageIsItsTagItsLengthAndItsFields(payload: Int) {
        var writer = ProtobufWriter()
        let body = [UInt8](repeating: 7, count: payload)
        writer.message(1) { outer in
            outer.message(3) { $0.bytes(2, body) }
            outer.varint(4, 1)
        }
        let field2 = [0x12] + Self.varint(payload) + body
        let inner = [0x1A] + Self.varint(field2.count) + field2 + [0x20, 0x01]
        #expect(writer.bytes == [0x0A] + Self.varint(inner.count) + inner)
    }

    @Test func messagesOneAfterAnotherKeepTheirOwnLengths() {
        var writer = ProtobufWriter()
        writer.message(1) { $0.string(1, String(repeating: "a", count: 200)) }
        writer.message(1) { $0.string(1, "b") }
        let long = [0x0A] + Self.varint(200) + [UInt8](repeating: 0x61, count: 200)
        #expect(writer.bytes == [0x0A] + Self.varint(long.count) + long + [0x0A, 0x03, 0x0A, 0x01, 0x62])
    }
}
