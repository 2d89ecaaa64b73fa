/// Re-indents compact JSON the way ArcGIS writes `f=pjson`: two spaces per level, `"key" : value`, one
/// member or element per line. Works on the bytes, so every writer produces compact JSON only.
enum JSONPrettyPrinter {
    static func pretty(_ compact: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(compact.count * 2)
        var depth = 0
        var inString = false
        var escaped = false
        var index = 0
        func newline(_ output: inout [UInt8], _ depth: Int) {
            output.append(0x0A)
            for _ in 0..<(2 * depth) { output.append(0x20) }
        }
        while index < compact.count {
            let byte = compact[index]
            if inString {
                output.append(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                output.append(byte)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < compact.count, compact[index + 1] == close {
                    output.append(byte)
                    output.append(close)
                    index += 2
                    continue
                }
                output.append(byte)
                depth += 1
                newline(&output, depth)
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth = max(0, depth - 1)
                newline(&output, depth)
                output.append(byte)
            case UInt8(ascii: ","):
                output.append(byte)
                output.append(0x20)
                newline(&output, depth)
            case UInt8(ascii: ":"):
                output.append(0x20)
                output.append(byte)
                output.append(0x20)
            default:
                output.append(byte)
            }
            index += 1
        }
        output.append(0x0A)
        return output
    }
}
