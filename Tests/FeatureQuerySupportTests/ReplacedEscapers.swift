/// The JSON string escapers the shared ``JSONString`` replaced, kept as the oracles of its equivalence test.
enum ReplacedEscapers {
    /// FeatureGeometry's `ParsedJSON.writeString` (also QueryLanguage's `JSONValue`, which added `\b` and
    /// `\f`): scalar by scalar into a `String`.
    static func parsedJSON(_ text: String, shortBackspaceAndFormFeed: Bool = false) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}" where shortBackspaceAndFormFeed: output += "\\b"
            case "\u{0C}" where shortBackspaceAndFormFeed: output += "\\f"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// The sample server's `JSONBuffer.string` and the contract's `ContractJSONWriter.string` (the same
    /// rules): byte by byte.
    static func byteWriter(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        func hex(_ nibble: UInt8) -> UInt8 { nibble < 10 ? nibble + 48 : nibble - 10 + UInt8(ascii: "a") }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [0x5C, 0x22]
            case UInt8(ascii: "\\"): bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: bytes += Array("\\u00".utf8) + [hex(byte >> 4), hex(byte & 0xF)]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    /// JSONLogging's `JSONLineBuffer.string`: runs copied, DEL and U+2028/U+2029 escaped as well.
    static func logLine(_ text: String) -> [UInt8] {
        let source = Array(text.utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        var runStart = 0
        var index = 0
        while index < source.count {
            let byte = source[index]
            let needsEscape: Bool
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00..<0x20, 0x7F: needsEscape = true
            case 0xE2:
                needsEscape = index + 2 < source.count && source[index + 1] == 0x80
                    && (source[index + 2] == 0xA8 || source[index + 2] == 0xA9)
            default: needsEscape = false
            }
            guard needsEscape else {
                index += 1
                continue
            }
            bytes += source[runStart..<index]
            switch byte {
            case UInt8(ascii: "\""): bytes += [0x5C, 0x22]
            case UInt8(ascii: "\\"): bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, UInt8(ascii: "n")]
            case 0x0D: bytes += [0x5C, UInt8(ascii: "r")]
            case 0x09: bytes += [0x5C, UInt8(ascii: "t")]
            case 0x08: bytes += [0x5C, UInt8(ascii: "b")]
            case 0x0C: bytes += [0x5C, UInt8(ascii: "f")]
            case 0xE2:
                bytes += Array((source[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                index += 2
            default:
                let hex = Array("0123456789abcdef".utf8)
                bytes += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
            index += 1
            runStart = index
        }
        bytes += source[runStart..<source.count]
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }
}
