import FeatureQuerySupport

/// The bytes of one JSON log line, written field by field.
///
/// Hand-written instead of `JSONEncoder`: a log line is a flat object of a few strings and numbers, and
/// encoding it directly into one byte array costs a fraction of what a `Codable` round trip does.
struct JSONLineBuffer {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// Ends the object and the line.
    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Starts a member: the separating comma when needed, the escaped key and the colon.
    mutating func key(_ key: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A JSON string, escaped by the package's one escaper (``JSONString``): control characters, DEL,
    /// U+2028 and U+2029 escaped too, so a line is safe to paste into JavaScript; any other Unicode as UTF-8.
    mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes)
    }

    /// Text that is already valid JSON (a number, `true`, `null`, `[`...).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// An integer as a JSON string (`"-42"`), its digits written straight into the line.
    mutating func quotedInteger(_ value: Int64) {
        quotedInteger(negative: value < 0, magnitude: value.magnitude)
    }

    mutating func quotedInteger(negative: Bool, magnitude: UInt64) {
        bytes.append(UInt8(ascii: "\""))
        if negative { bytes.append(UInt8(ascii: "-")) }
        var magnitude = magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { room in
            var index = room.count
            repeat {
                index -= 1
                room[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: room[index...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func raw(byte: UInt8) {
        bytes.append(byte)
    }

    /// Starts a nested object or array member value; the caller writes the members.
    mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = false
    }

    mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// Separates array elements.
    mutating func element() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// The current time as RFC 3339 UTC with milliseconds (`2025-11-22T04:07:31.042Z`), from the real-time
    /// clock, without `DateFormatter`.
    mutating func timestamp() {
        timestamp(milliseconds: WallClock.nowMilliseconds())
    }

    /// `RFC3339.string(fromMilliseconds:)`'s text as a JSON string, written straight into the line.
    mutating func timestamp(milliseconds: Int64) {
        RFC3339.appendQuoted(milliseconds: milliseconds, to: &bytes)
    }
}
