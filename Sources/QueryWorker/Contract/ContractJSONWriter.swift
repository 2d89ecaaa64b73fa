import FeatureQuerySupport

/// Appends JSON text straight into a byte buffer: the outcome encoders' writer. No Foundation and no tree,
/// because a result can hold millions of object ids, each written here as digits.
struct ContractJSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ slice: ArraySlice<UInt8>) {
        bytes.append(contentsOf: slice)
    }

    /// `"name":` — names are the contract's own, never input.
    mutating func key(_ name: StaticString) {
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func comma() { bytes.append(UInt8(ascii: ",")) }

    /// A JSON string, escaped by the package's one escaper (``JSONString``).
    mutating func string(_ text: String) {
        JSONString.append(text, to: &bytes)
    }

    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Decimal digits, without going through `String`.
    mutating func integer(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        bytes[start...].reverse()
    }

    mutating func integer(_ value: Int) { integer(Int64(value)) }

    /// Any JSON value, as ``ParsedJSON/write(to:)`` writes it (members sorted, integers as integers).
    mutating func value(_ value: ParsedJSON) {
        bytes.append(contentsOf: value.jsonText.utf8)
    }

    /// An RFC 3339 UTC timestamp string for milliseconds since the epoch.
    mutating func timestamp(_ milliseconds: Int64) {
        RFC3339.appendQuoted(milliseconds: milliseconds, to: &bytes)
    }

    /// The number of bytes ``integer(_:)`` writes for `value`.
    static func digitCount(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    /// RFC 4648 base64 with padding, for keys that are not UTF-8.
    static func base64(_ input: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var output: [UInt8] = []
        output.reserveCapacity((input.count + 2) / 3 * 4)
        var index = 0
        while index < input.count {
            let remaining = input.count - index
            let b0 = UInt32(input[index])
            let b1 = remaining > 1 ? UInt32(input[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(input[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 0x3F)])
            output.append(alphabet[Int(triple >> 12 & 0x3F)])
            output.append(remaining > 1 ? alphabet[Int(triple >> 6 & 0x3F)] : UInt8(ascii: "="))
            output.append(remaining > 2 ? alphabet[Int(triple & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}
