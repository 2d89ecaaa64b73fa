import FeatureQuerySupport
import FeatureService

/// One GeoJSON Feature of a page, kept as the bytes it arrived in: only what a query needs is parsed (the
/// `id` always, `properties` for a where clause or `outFields`, `geometry` for a spatial filter), and the
/// rest is copied into the answer as it is (compacted), so coordinates are never parsed and printed again.
struct RawFeature: Sendable {
    /// The feature object's bytes (a slice of its page's body).
    let bytes: ArraySlice<UInt8>
    /// The members' values, as ranges of ``bytes``' indices; nil when absent.
    let id: Range<Int>?
    let geometry: Range<Int>?
    let properties: Range<Int>?

    /// Finds the members of a feature object; throws when the bytes are not one JSON object.
    init(_ bytes: ArraySlice<UInt8>) throws(JSONScanFailure) {
        self.bytes = bytes
        let base = bytes.startIndex
        let found = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONScanFailure) in try Self.members(buffer) }
        }
        let (id, geometry, properties) = try found.get()
        self.id = id.map { ($0.lowerBound + base)..<($0.upperBound + base) }
        self.geometry = geometry.map { ($0.lowerBound + base)..<($0.upperBound + base) }
        self.properties = properties.map { ($0.lowerBound + base)..<($0.upperBound + base) }
    }

    private static func members(
        _ buffer: UnsafeBufferPointer<UInt8>
    ) throws(JSONScanFailure) -> (Range<Int>?, Range<Int>?, Range<Int>?) {
        var scanner = JSONByteScanner(buffer)
        var id: Range<Int>?
        var geometry: Range<Int>?
        var properties: Range<Int>?
        try scanner.expect(UInt8(ascii: "{"), "a feature object")
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") { return (nil, nil, nil) }
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else {
                throw scanner.failure("expected a member name in double quotes but found \(scanner.describeCurrent())")
            }
            let name = try scanner.scanString()
            try scanner.expect(UInt8(ascii: ":"), "':' after a member name")
            scanner.skipWhitespace()
            let start = scanner.index
            try scanner.skipValue(depth: 1)
            let range = start..<scanner.index
            if scanner.spanEquals(name, "id") {
                id = range
            } else if scanner.spanEquals(name, "geometry") {
                geometry = range
            } else if scanner.spanEquals(name, "properties") {
                properties = range
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): return (id, geometry, properties)
            default: throw scanner.failure("expected ',' or '}' in a feature but found \(scanner.describeCurrent())")
            }
        }
    }

    /// The feature's `id` with its type: a string as a string; an integer from its digits (exact beyond 2^53,
    /// where a JSON parser's doubles are not); another number as the text the server wrote; nil when absent
    /// or of another type.
    var featureID: FeatureID? {
        guard let id, let first = bytes[id].first else { return nil }
        if first == UInt8(ascii: "\"") {
            guard case .string(let text)? = parsed(id) else { return nil }
            return .string(text)
        }
        guard first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return nil }
        let text = String(decoding: bytes[id], as: UTF8.self)
        if let integer = Int64(text) { return .integer(integer) }
        // `1.0` and `1e3` are integers written otherwise; `1.5` has no integer, and keeps its text.
        if case .number(let number)? = parsed(id), let integer = Int64(exactly: number) { return .integer(integer) }
        return .string(text)
    }

    /// A member's value parsed; nil when absent or unreadable (the page was checked as a whole already).
    func parsed(_ range: Range<Int>?) -> ParsedJSON? {
        guard let range else { return nil }
        return try? ParsedJSON(reading: bytes[range])
    }

    /// Appends a member's bytes without the whitespace outside strings (`null` when absent).
    func writeCompacted(_ range: Range<Int>?, to json: inout JSONWriter) {
        guard let range else {
            json.raw("null")
            return
        }
        var inString = false
        var escaped = false
        for byte in bytes[range] {
            if inString {
                json.byte(byte)
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            case UInt8(ascii: "\""): inString = true
            default: break
            }
            json.byte(byte)
        }
    }
}
