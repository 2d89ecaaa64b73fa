#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// A JSON string, escaped per RFC 8259. Control characters (and DEL) become `\uXXXX` or their short
    /// forms; U+2028 and U+2029 are escaped too, so a line is safe to paste into JavaScript. Everything else
    /// (any Unicode) is copied as UTF-8.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ source: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        while index < source.count {
            let byte = source[index]
            let needsEscape: Bool
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00..<0x20, 0x7F:
                needsEscape = true
            case 0xE2:
                needsEscape = index + 2 < source.count && source[index + 1] == 0x80
                    && (source[index + 2] == 0xA8 || source[index + 2] == 0xA9)
            default:
                needsEscape = false
            }
            guard needsEscape else {
                index += 1
                continue
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0xE2:
                raw(source[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
                index += 2
            default: appendUnicodeEscape(byte)
            }
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
    }

    private mutating func appendUnicodeEscape(_ byte: UInt8) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0x0F)])
    }

    /// Text that is already valid JSON (a number, `true`, `null`, `[`...).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
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
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec
        var parts = tm()
        gmtime_r(&seconds, &parts)
        bytes.append(UInt8(ascii: "\""))
        digits(Int(parts.tm_year) + 1900, width: 4)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mon) + 1, width: 2)
        bytes.append(UInt8(ascii: "-"))
        digits(Int(parts.tm_mday), width: 2)
        bytes.append(UInt8(ascii: "T"))
        digits(Int(parts.tm_hour), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_min), width: 2)
        bytes.append(UInt8(ascii: ":"))
        digits(Int(parts.tm_sec), width: 2)
        bytes.append(UInt8(ascii: "."))
        digits(Int(now.tv_nsec) / 1_000_000, width: 3)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func digits(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = max(0, value)
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8((rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }
}
