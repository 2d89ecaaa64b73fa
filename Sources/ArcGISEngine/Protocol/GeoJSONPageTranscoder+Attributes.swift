import FeatureQuerySupport

/// The attribute key that held the previous feature's object id. The reference path remembers it and tries it
/// first on every feature; the transcoder does the same, comparing bytes where that is exact (ASCII names)
/// and Swift strings where it is not (a name like "K" equals "\u{212A}" as a `String`).
struct ResolvedKey {
    var name: String
    var utf8: [UInt8]
    var isASCII: Bool

    init(_ name: String) {
        self.name = name
        utf8 = Array(name.utf8)
        isASCII = utf8.allSatisfy { $0 < 0x80 }
    }
}

/// Attributes are copied, not decoded: the transcoder only checks their syntax and finds the object id
/// among them the way the reference path does.
extension GeoJSONPageTranscoder {
    /// Scans the attributes object at the read position (depth 4), checking its syntax, and returns the range
    /// of the value under the remembered id key (the last one, as a JSON tree keeps the last duplicate).
    mutating func scanAttributes() throws(JSONScanFailure) -> Range<Int>? {
        scanner.index += 1  // {
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.index += 1
            return nil
        }
        var found: Range<Int>?
        let resolvedKey = self.resolvedKey  // one copy per feature, not one retain per attribute
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else { throw giveUp("a member name expected in attributes") }
            let key = try scanner.scanString()
            try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
            scanner.skipWhitespace()
            let valueStart = scanner.index
            try skipAttributeValue()
            if let resolvedKey, keyMatches(key, resolvedKey) { found = valueStart..<scanner.index }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): scanner.index += 1; return found
            default: throw giveUp("',' or '}' expected in attributes")
            }
        }
    }

    /// Skips one attribute value. Values are copied as they are, which is exact except for a number beyond a
    /// Double's range: the reference path writes `null` for it, so such a page goes the reference way.
    private mutating func skipAttributeValue() throws(JSONScanFailure) {
        let start = scanner.index
        switch scanner.current {
        case UInt8(ascii: "\""):
            _ = try scanner.scanString()
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?:
            try scanner.skipNumber()
            if JSONNumberText.mayOverflow(scanner.bytes, start, scanner.index),
                !JSONNumberText.value(scanner.bytes, start, scanner.index).isFinite
            {
                throw giveUp("an attribute beyond a Double's range")
            }
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try scanner.skipValue(depth: 4)
            if JSONNumberText.mayOverflow(scanner.bytes, start, scanner.index),
                Self.holdsNonFiniteNumber(try parse(start..<scanner.index))
            {
                throw giveUp("a nested attribute beyond a Double's range")
            }
        default:
            try scanner.skipValue(depth: 4)
        }
    }

    private static func holdsNonFiniteNumber(_ value: ParsedJSON) -> Bool {
        switch value {
        case .number(let number): return !number.isFinite
        case .array(let items): return items.contains(where: holdsNonFiniteNumber)
        case .object(let members): return members.values.contains(where: holdsNonFiniteNumber)
        case .null, .bool, .string: return false
        }
    }

    /// Whether an attribute name is the remembered key: bytes when both are plain ASCII, else as strings.
    private func keyMatches(_ key: JSONByteScanner.StringSpan, _ resolved: ResolvedKey) -> Bool {
        let bytes = scanner.bytes
        let length = key.end - key.start
        var keyIsASCII = !key.hasEscapes
        if keyIsASCII, length == resolved.utf8.count {
            var equal = true
            for offset in 0..<length where bytes[key.start + offset] != resolved.utf8[offset] {
                equal = false
                break
            }
            if equal { return true }
        }
        if keyIsASCII {
            for offset in key.start..<key.end where bytes[offset] >= 0x80 {
                keyIsASCII = false
                break
            }
        }
        if keyIsASCII && resolved.isASCII { return false }
        return decodeKey(key) == resolved.name
    }

    /// A member name as a `String` (the body is already known to be valid UTF-8).
    func decodeKey(_ key: JSONByteScanner.StringSpan) -> String? {
        if !key.hasEscapes {
            return String(decoding: UnsafeBufferPointer(rebasing: scanner.bytes[key.start..<key.end]), as: UTF8.self)
        }
        let quoted = UnsafeBufferPointer(rebasing: scanner.bytes[(key.start - 1)...key.end])
        return (try? ParsedJSON(reading: quoted))?.stringValue
    }

    /// The reference path's search when the remembered key is absent: `objectIdField`, then the response's
    /// `objectIdFieldName` (once known), each exactly and then case-insensitively. A case-insensitive match
    /// among several different names is left to the reference path.
    mutating func resolveObjectID(in range: Range<Int>) throws(JSONScanFailure) -> Range<Int>? {
        var members: [String: Range<Int>] = [:]
        var reader = JSONByteScanner(scanner.bytes, from: range.lowerBound + 1, maxDepth: scanner.maxDepth)
        reader.skipWhitespace()
        while reader.current == UInt8(ascii: "\"") {
            let key = try reader.scanString()
            try reader.expect(UInt8(ascii: ":"), "':' after a member name")
            reader.skipWhitespace()
            let start = reader.index
            try reader.skipValue(depth: 4)
            guard let name = decodeKey(key) else { throw giveUp("an attribute name that cannot be read") }
            members[name] = start..<reader.index
            reader.skipWhitespace()
            if reader.current == UInt8(ascii: ",") {
                reader.index += 1
                reader.skipWhitespace()
            }
        }
        var candidates = [objectIdField]
        if objectIdFieldNameSettled, let objectIdFieldName { candidates.append(objectIdFieldName) }
        for candidate in candidates {
            if let value = members[candidate] {
                resolvedKey = ResolvedKey(candidate)
                return value
            }
            let folded = candidate.lowercased()
            let matches = members.filter { $0.key.lowercased() == folded }
            guard matches.count <= 1 else { throw giveUp("several attribute names match the id field") }
            if let match = matches.first {
                resolvedKey = ResolvedKey(match.key)
                return match.value
            }
        }
        return nil
    }

    /// The id: an integral number in Int64's range, judged on its Double value as the reference path judges
    /// it. Null or another type is the reference path's error.
    func readObjectID(_ range: Range<Int>) throws(JSONScanFailure) -> Int64 {
        let bytes = scanner.bytes
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        var index = negative ? range.lowerBound + 1 : range.lowerBound
        var value: Int64 = 0
        // Up to 15 digits, an integer literal is exact as a Double too: read it directly.
        while index < range.upperBound, index - range.lowerBound < 15 {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            value = value * 10 + Int64(digit)
            index += 1
        }
        if index == range.upperBound, index > range.lowerBound + (negative ? 1 : 0) {
            return negative ? -value : value
        }
        let first = bytes[range.lowerBound]
        guard first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
            let id = Int64(exactly: JSONNumberText.value(bytes, range.lowerBound, range.upperBound))
        else {
            throw giveUp("an object id that is not an integral number")
        }
        return id
    }
}
