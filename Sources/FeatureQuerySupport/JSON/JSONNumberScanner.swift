/// Checks one JSON number against the RFC 8259 grammar and, when it can, computes its value exactly without
/// going through text: up to 19 significant digits and a decimal exponent of at most 22 either way become one
/// correctly rounded multiplication or division of two exact Doubles (Clinger's fast path). Everything else
/// (very long mantissas, large exponents) is left to the standard library's correctly rounded conversion.
struct JSONNumberScanner {
    private var negative = false
    private var mantissa: UInt64 = 0
    private var significantDigits = 0
    private var exponent = 0
    private var truncated = false

    /// The value, when the fast path applies.
    var exactValue: Double? {
        guard !truncated, mantissa <= 1 << 53, (-22...22).contains(exponent) else {
            return mantissa == 0 && !truncated ? (negative ? -0.0 : 0.0) : nil
        }
        var value = Double(mantissa)
        if exponent < 0 {
            value /= Self.powersOfTen[-exponent]
        } else if exponent > 0 {
            value *= Self.powersOfTen[exponent]
        }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Advances `index` past one number, or throws a malformed ``JSONReadError`` naming the byte.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(JSONReadError) {
        func failure(_ message: String) -> JSONReadError {
            JSONReadError(.malformed, "\(message) at byte \(index)")
        }
        func digit(_ i: Int) -> UInt8? {
            guard i < bytes.count else { return nil }
            let byte = bytes[i]
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
        }
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard let first = digit(index) else { throw failure("a '-' not followed by a digit") }
        if first == 0 {
            index += 1
            if digit(index) != nil { throw failure("a number with a leading zero") }
        } else {
            while let d = digit(index) {
                accumulate(d, fractional: false)
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digit(index) != nil else { throw failure("a '.' not followed by a digit") }
            while let d = digit(index) {
                accumulate(d, fractional: true)
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard digit(index) != nil else { throw failure("an exponent with no digits") }
            var value = 0
            while let d = digit(index) {
                if value < 1_000_000 { value = value * 10 + Int(d) }
                index += 1
            }
            exponent += exponentNegative ? -value : value
        }
    }

    private mutating func accumulate(_ digit: UInt8, fractional: Bool) {
        if mantissa == 0 && digit == 0 {
            if fractional { exponent -= 1 }
            return
        }
        if significantDigits < 19 {
            mantissa = mantissa * 10 + UInt64(digit)
            significantDigits += 1
            if fractional { exponent -= 1 }
        } else {
            truncated = true
            if !fractional { exponent += 1 }
        }
    }
}
