/// A set of ASCII bytes as a 128-bit mask, for code that classifies every byte of every request's URL:
/// membership is one shift and test, where a `switch` over character ranges costs several compares and
/// branches per byte. Bytes from 128 up are never members.
///
/// The masks are literals (a test checks each against the characters it stands for), returned by computed
/// properties so that no lazily initialised global is consulted per byte.
package struct ASCIIByteSet {
    /// Bit `b` for byte `b` in 0..<64.
    package let low: UInt64
    /// Bit `b - 64` for byte `b` in 64..<128.
    package let high: UInt64

    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    @inline(__always)
    package func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? (low &>> UInt64(byte)) & 1 != 0 : byte < 128 && (high &>> UInt64(byte &- 64)) & 1 != 0
    }

    /// What form encoding sends as it is: ASCII letters, digits, `-._*`.
    package static var formUnreserved: ASCIIByteSet { ASCIIByteSet(low: 0x03FF_6400_0000_0000, high: 0x07FF_FFFE_87FF_FFFE) }

    /// A plain host name: ASCII letters, digits, `.` and `-`.
    package static var hostName: ASCIIByteSet { ASCIIByteSet(low: 0x03FF_6000_0000_0000, high: 0x07FF_FFFE_07FF_FFFE) }

    /// RFC 3986 `pchar` without `%`, and `/` and `?`: letters, digits, `-._~!$&'()*+,;=:@/?`.
    package static var queryCharacter: ASCIIByteSet { ASCIIByteSet(low: 0xAFFF_FFD2_0000_0000, high: 0x47FF_FFFE_87FF_FFFF) }
}
