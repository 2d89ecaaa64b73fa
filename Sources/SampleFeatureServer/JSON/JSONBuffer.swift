import FeatureQuerySupport

/// A growing UTF-8 byte buffer that JSON is appended to directly: no Foundation, no Codable, no
/// intermediate tree. Responses of tens of kilobytes are written thousands of times a second, so every
/// append is a few byte copies.
struct JSONBuffer {
    private(set) var bytes: [UInt8]

    init(capacity: Int = 1024) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    /// Appends text known at compile time (keys, punctuation) as it is.
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends bytes that are already JSON (a cached fragment).
    @inline(__always)
    mutating func raw(_ fragment: [UInt8]) {
        bytes.append(contentsOf: fragment)
    }

    /// Appends bytes that are already JSON, from a packed table.
    @inline(__always)
    mutating func raw(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }

    @inline(__always)
    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Appends text as it is, for fragments built elsewhere that are already valid JSON.
    mutating func rawText(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a JSON string literal, escaped by the package's one escaper (``JSONString``).
    mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes)
    }

    /// Appends `"key":`.
    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends a decimal integer.
    @inline(__always)
    mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude)
    }

    @inline(__always)
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Appends the shortest text that reads back as `value`; integral values without a fraction, and
    /// `null` for values JSON can't carry (NaN, infinities).
    mutating func double(_ value: Double) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 {
            int(Int(value))
            return
        }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Appends a coordinate held as whole centimeters, in meters with at most two decimals
    /// (`-1322545612` → `-13225456.12`). Exact, and reads back as the same Double as `Double(cm) / 100`.
    @inline(__always)
    mutating func centimeters(_ value: Int32) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = Int(value.magnitude)
        appendDigits(UInt(magnitude / 100))
        let fraction = magnitude % 100
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(truncatingIfNeeded: fraction / 10) + 48)
            if fraction % 10 != 0 { bytes.append(UInt8(truncatingIfNeeded: fraction % 10) + 48) }
        }
    }

    /// Removes a trailing comma left by a loop that writes `item,` each time.
    mutating func dropTrailingComma() {
        if bytes.last == UInt8(ascii: ",") { bytes.removeLast() }
    }

    /// Writes the digits most significant first into a small stack buffer, then appends them at once.
    @inline(__always)
    private mutating func appendDigits(_ value: UInt) {
        if value < 10 {
            bytes.append(UInt8(truncatingIfNeeded: value) + 48)
            return
        }
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &buffer) { digits in
            var position = digits.count
            var rest = value
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: rest % 10) + 48
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[position...]))
        }
    }
}
