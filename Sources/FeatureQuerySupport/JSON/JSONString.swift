/// JSON string literals (RFC 8259): the one escaper every JSON writer of the package uses (outcomes, logs,
/// sample responses, CQL2-JSON, GeoJSON properties).
///
/// It escapes what JSON requires (`"`, `\` and the control characters below U+0020, with the short forms
/// `\n \r \t \b \f`) and, beyond that, DEL (U+007F) and U+2028/U+2029, so that a log line or an outcome is
/// safe to paste into JavaScript and shows no raw control byte. Every other byte is copied as it is, in runs:
/// text with nothing to escape costs one scan and one copy.
package enum JSONString {
    /// Appends `text` as a quoted JSON string to `bytes`.
    package static func append(_ text: String, to bytes: inout [UInt8]) {
        // A native string lends its UTF-8 without a copy of the string (a retain and a release per append,
        // the most frequent of the worker's, when `withUTF8` needed a mutable copy).
        let lent: Void? = text.utf8.withContiguousStorageIfAvailable { append(utf8: $0, to: &bytes) }
        if lent == nil {
            var text = text
            text.withUTF8 { append(utf8: $0, to: &bytes) }
        }
    }

    /// Appends the UTF-8 `utf8` (valid UTF-8 is the caller's promise) as a quoted JSON string to `bytes`.
    package static func append(utf8 source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var runStart = 0
        var index = 0
        while index < source.count {
            let byte = source[index]
            guard needsEscape(source, at: index) else {
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
                // U+2028 (E2 80 A8) or U+2029 (E2 80 A9).
                let last = source[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "2"), last])
                index += 2
            default:
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(ASCII.hexDigit(byte >> 4))
                bytes.append(ASCII.hexDigit(byte & 0x0F))
            }
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<source.count]))
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text` as a quoted JSON string to `output`; text with nothing to escape is appended as it is.
    package static func append(_ text: String, to output: inout String) {
        var text = text
        let plain = text.withUTF8 { utf8 in !utf8.indices.contains { needsEscape(utf8, at: $0) } }
        if plain {
            output += "\""
            output += text
            output += "\""
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        append(text, to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    /// `text` as a quoted JSON string.
    package static func quoted(_ text: String) -> String {
        var output = ""
        append(text, to: &output)
        return output
    }

    @inline(__always)
    private static func needsEscape(_ source: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch source[index] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00..<0x20, 0x7F:
            return true
        case 0xE2:
            return index + 2 < source.count && source[index + 1] == 0x80
                && (source[index + 2] == 0xA8 || source[index + 2] == 0xA9)
        default:
            return false
        }
    }
}
