extension ParsedJSON {
    /// The value as compact JSON text: what a service sent, written back out (attributes into GeoJSON
    /// properties, error details into outcome messages).
    ///
    /// Object members are sorted by name so output is stable; integral numbers are written as integers,
    /// other finite numbers in Swift's shortest round-trip form, non-finite ones (which JSON cannot hold) as
    /// `null`.
    package func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number): Self.writeNumber(number, to: &output)
        case .string(let text): JSONString.append(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.write(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                JSONString.append(key, to: &output)
                output += ":"
                members[key]?.write(to: &output)
            }
            output += "}"
        }
    }

    /// The value as compact JSON text (see ``write(to:)``).
    package var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Integral numbers within ±2^53 as integers, other finite ones in Swift's shortest round-trip form, the
    /// rest as `null`.
    private static func writeNumber(_ number: Double, to output: inout String) {
        guard number.isFinite else {
            output += "null"
            return
        }
        if number == number.rounded(.towardZero), abs(number) < 9.007_199_254_740_992e15 {
            output += String(Int64(number))
        } else {
            output += "\(number)"
        }
    }
}
