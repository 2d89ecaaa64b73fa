import FeatureQuerySupport

/// Values of JSON number texts the scanner has already checked against the grammar.
///
/// Coordinates are copied as text, but their values decide ring winding, and an attribute's value decides
/// whether copying it is exact. ``value(_:_:_:)`` is the Double the reference parser reads, the correctly
/// rounded one: Clinger's fast path (up to 19 significant digits, a mantissa up to 2^53, a decimal exponent
/// within ±22) is exact; anything else goes to the C library's correctly rounded `strtod`. Coordinates are
/// read by ``scanPlain(_:_:)``, exact or within a rounding (see there why that is enough).
enum JSONNumberText {
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of the number text in `bytes[start..<end]`.
    @inline(__always)
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        while index < end {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if mantissa != 0 || digit != 0 { significant += 1 }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if mantissa != 0 || digit != 0 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                exponent -= 1
                index += 1
            }
        }
        guard index == end, significant <= 19, mantissa <= 1 << 53, exponent >= -22 else {
            return slowValue(bytes, start, end)
        }
        var value = Double(mantissa)
        if exponent < 0 { value /= powersOfTen[-exponent] }
        return negative ? -value : value
    }

    /// Reads a coordinate in its common form (`-?(0|[1-9][0-9]*)(\.[0-9]+)?`, no exponent) starting at `start`,
    /// checking the grammar and computing the value in one pass: nil when the text takes another form
    /// (an exponent, a leading zero, a stray byte), for the scanner to check and ``value(_:_:_:)`` to read.
    ///
    /// The value is exact up to 2^53 in the mantissa (Clinger's fast path). Above, up to 19 significant digits,
    /// it is the mantissa rounded to a Double, divided by a power of ten: within about 2e-16 of the correctly
    /// rounded value, where `strtod` cost more than the rest of a page's transcoding (most Web Mercator
    /// coordinates have 16 or 17 digits). Enough for what the transcoder does with coordinates' values: ring
    /// windings and hole containment decide only outside margins of 1e-9 relative (``RingWinding``), and ring
    /// closure compares the coordinates' texts (``GeoJSONPageTranscoder/ringIsClosed(_:_:_:)``).
    @inline(__always)
    static func scanPlain(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> (end: Int, value: Double)? {
        let count = bytes.count
        var index = start
        let negative = index < count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < count else { return nil }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        let first = bytes[index] &- UInt8(ascii: "0")
        guard first < 10 else { return nil }
        index += 1
        if first == 0 {
            if index < count, bytes[index] &- UInt8(ascii: "0") < 10 { return nil }
        } else {
            mantissa = UInt64(first)
            significant = 1
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                significant += 1
                index += 1
            }
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < count, bytes[index] &- UInt8(ascii: "0") < 10 else { return nil }
            while index < count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if mantissa != 0 || digit != 0 { significant += 1 }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                exponent -= 1
                index += 1
            }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") { return nil }
        guard significant <= 19, exponent >= -22 else {
            return (index, slowValue(bytes, start, index))
        }
        var value = Double(mantissa)
        if exponent < 0 { value /= powersOfTen[-exponent] }
        return (index, negative ? -value : value)
    }

    /// Whether the number (or any number inside a nested value) might be beyond a Double's range: it has an
    /// exponent, or it is very long. Most numbers are neither, and need no conversion to be copied.
    static func mayOverflow(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        if end - start > 300 { return true }
        for index in start..<end where bytes[index] | 0x20 == UInt8(ascii: "e") { return true }
        return false
    }

    /// The C library's correctly rounded `strtod` (``CNumberParser``), or the standard library's conversion
    /// for texts over 63 bytes or when the locale's decimal point is not '.'.
    private static func slowValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double {
        if let parsed = CNumberParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return parsed }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return Double(text) ?? .nan
    }
}

/// The checks the reference parser makes on text that ``JSONByteScanner`` does not: every byte sequence is
/// well-formed UTF-8, and every `\u` escape of a UTF-16 surrogate is half of a valid pair. One pass over the
/// body, eight ASCII bytes at a time; a body that fails goes to the reference path for its error.
enum JSONTextCheck {
    static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = start
        while index < count {
            // Skip words of ASCII without a backslash.
            while index + 8 <= count {
                let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                let backslashes = word ^ 0x5C5C_5C5C_5C5C_5C5C
                let hasBackslash = (backslashes &- 0x0101_0101_0101_0101) & ~backslashes & 0x8080_8080_8080_8080
                if (word & 0x8080_8080_8080_8080) | hasBackslash != 0 { break }
                index += 8
            }
            guard index < count else { break }
            let byte = base[index]
            if byte == UInt8(ascii: "\\") {
                guard let next = escapeEnd(bytes, index) else { return false }
                index = next
            } else if byte < 0x80 {
                index += 1
            } else {
                guard let next = UTF8Validation.scalarEnd(in: bytes, at: index) else { return false }
                index = next
            }
        }
        return true
    }

    /// Past one escape sequence starting at a backslash; nil for a surrogate escape that is not a valid pair
    /// (or a body that ends inside the escape, which the scanner reports anyway).
    private static func escapeEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int? {
        guard index + 1 < bytes.count else { return nil }
        guard bytes[index + 1] == UInt8(ascii: "u") else { return index + 2 }
        guard let unit = hex4(bytes, index + 2) else { return nil }
        switch unit {
        case 0xD800..<0xDC00:
            guard index + 7 < bytes.count, bytes[index + 6] == UInt8(ascii: "\\"), bytes[index + 7] == UInt8(ascii: "u"),
                let low = hex4(bytes, index + 8), (0xDC00..<0xE000).contains(low)
            else { return nil }
            return index + 12
        case 0xDC00..<0xE000:
            return nil
        default:
            return index + 6
        }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> UInt32? {
        guard start + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for index in start..<(start + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
