/// Byte-level ASCII helpers for the parsers and writers that work on UTF-8 bytes (URLs, HTTP headers, JSON,
/// form encoding), so each rule is written once.
package enum ASCII {
    /// The lowercase hexadecimal digit for `nibble` (0–15), as JSON's `\u00xx` escapes are written.
    @inline(__always)
    package static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }

    /// `bytes` as lowercase hexadecimal text, two digits a byte: how digests are written (`sha256`, SigV4).
    package static func hexString(_ bytes: some Collection<UInt8>) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        appendHex(bytes, to: &digits)
        return String(decoding: digits, as: UTF8.self)
    }

    /// Appends `bytes` as lowercase hexadecimal digits, two a byte, to `output` (a W3C `traceparent`'s ids).
    package static func appendHex(_ bytes: some Collection<UInt8>, to output: inout [UInt8]) {
        for byte in bytes {
            output.append(hexDigit(byte >> 4))
            output.append(hexDigit(byte & 0x0F))
        }
    }

    /// The uppercase hexadecimal digit for `nibble` (0–15), as percent-encoding writes `%2F`.
    @inline(__always)
    package static func uppercaseHexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "A") &+ nibble &- 10
    }

    /// The value of a hexadecimal digit of either case; nil for any other byte.
    @inline(__always)
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// The value of a decimal digit; nil for any other byte.
    @inline(__always)
    package static func digitValue(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte &- UInt8(ascii: "0") : nil
    }

    /// `byte` with an ASCII capital turned into its small letter; every other byte unchanged.
    @inline(__always)
    package static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// Space, tab, line feed, carriage return: JSON's and HTTP's whitespace.
    @inline(__always)
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `Character.isWhitespace` of an ASCII byte: tab, line feed, vertical tab, form feed, carriage return,
    /// space (C's `isspace`). Wider than ``isWhitespace(_:)``: for code whose reference works on `Character`s.
    @inline(__always)
    package static func isCharacterWhitespace(_ byte: UInt8) -> Bool {
        (byte >= 0x09 && byte <= 0x0D) || byte == 0x20
    }
}
