extension ArcGISResponse {
    /// The count of a body that is exactly `{"count":N}` (JSON white space allowed around each token) from
    /// `start`, else nil.
    ///
    /// Every ids query asks for a count too, and building a JSON tree (a dictionary, a key string) for one
    /// number cost more than the rest of decoding it. N is taken only as the tree would give it exactly:
    /// 1 to 15 digits, no sign, fraction, exponent or leading zero (the tree holds numbers as `Double`, exact to
    /// 15 digits). Any other body, error bodies included, gets nil and goes through the tree.
    static func plainCount(_ body: [UInt8], from start: Int) -> Int? {
        body.withUnsafeBufferPointer { bytes -> Int? in
            var index = start
            func skipWhitespace() {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    index += 1
                }
            }
            func take(_ literal: StaticString) -> Bool {
                literal.withUTF8Buffer { literal in
                    guard bytes.count - index >= literal.count else { return false }
                    for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
                    index += literal.count
                    return true
                }
            }
            guard take("{") else { return nil }
            skipWhitespace()
            guard take("\"count\"") else { return nil }
            skipWhitespace()
            guard take(":") else { return nil }
            skipWhitespace()
            let digitsStart = index
            var value = 0
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                guard index - digitsStart <= 15 else { return nil }
            }
            let digits = index - digitsStart
            guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
            skipWhitespace()
            guard take("}") else { return nil }
            skipWhitespace()
            return index == bytes.count ? value : nil
        }
    }
}
