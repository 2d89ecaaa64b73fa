/// Well-formed UTF-8 by Unicode's table of well-formed sequences (no overlong forms, no surrogates, nothing
/// above U+10FFFF): where bytes from a message or a response stop being text.
///
/// Shared so that every module reading hostile bytes (where clauses, ArcGIS responses in the engine) applies
/// the same rule.
package enum UTF8Validation {
    /// The index just past the multi-byte sequence whose lead byte (0x80 or above) is at `index`; nil when the
    /// sequence is not well formed or runs past the end.
    package static func scalarEnd(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low, second <= high else { return nil }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return nil }
        return index + length
    }

    /// The offset of the first byte that does not begin a well-formed sequence; nil when all of it is UTF-8.
    package static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        while index < bytes.count {
            if bytes[index] < 0x80 {
                index += 1
            } else if let next = scalarEnd(in: bytes, at: index) {
                index = next
            } else {
                return index
            }
        }
        return nil
    }
}
