import FeatureQuerySupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an ids body could not be read: broken JSON (truncated or invalid), or JSON of the wrong shape.
enum ObjectIDScanError: Error {
    case syntax(JSONScanFailure)
    case shape(String)
}

/// What the top-level object of a `returnIdsOnly=true` body holds.
struct ObjectIDScan {
    var objectIdFieldName: String?
    /// nil when the body has no `objectIds` member; empty for `"objectIds": null`.
    var objectIds: [Int64]?
    /// Members that may make this an error body (`error`, `status`, `messages`, `code`...), as byte ranges of
    /// their values, parsed only when `error` or `status` is among them.
    var errorMemberRanges: [(name: String, range: Range<Int>)] = []
    var hasFeatures = false
}

/// A dedicated reader for `{"objectIdFieldName":"OBJECTID","objectIds":[1,2,...]}`, the one response that
/// can hold millions of values: it walks the top-level object with ``JSONByteScanner``, reads the ids array
/// straight into a `[Int64]` reserved to its exact length, and skips every other member while checking its
/// syntax. No tree is built, so the only memory it adds is the ids themselves.
struct ObjectIDReader {
    private var scanner: JSONByteScanner

    init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) {
        scanner = JSONByteScanner(bytes, from: index)
    }

    private static let errorMemberNames: Set<String> = ["error", "status", "messages", "message", "code", "statusMessage"]

    mutating func read() throws(ObjectIDScanError) -> ObjectIDScan {
        var scan = ObjectIDScan()
        scanner.skipWhitespace()
        guard scanner.current == UInt8(ascii: "{") else {
            throw .shape("is \(describeValue()), not a JSON object (expected object ids)")
        }
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "}") {
            scanner.index += 1
        } else {
            try readMembers(into: &scan)
        }
        do throws(JSONScanFailure) { try scanner.expectEnd() } catch { throw .syntax(error) }
        return scan
    }

    private mutating func readMembers(into scan: inout ObjectIDScan) throws(ObjectIDScanError) {
        while true {
            scanner.skipWhitespace()
            guard scanner.current == UInt8(ascii: "\"") else {
                throw .syntax(scanner.failure("expected a member name in double quotes but found \(scanner.describeCurrent())"))
            }
            let key = try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.scanString() }
            try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.expect(UInt8(ascii: ":"), "':' after a member name") }
            scanner.skipWhitespace()
            if scanner.spanEquals(key, "objectIds") {
                scan.objectIds = try readIDsOrNull()
            } else if scanner.spanEquals(key, "objectIdFieldName") {
                scan.objectIdFieldName = try readNameOrNull()
            } else if key.hasEscapes {
                try readEscapedMember(key, into: &scan)
            } else {
                try readOtherMember(name: try plainName(key), into: &scan)
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","): scanner.index += 1
            case UInt8(ascii: "}"): scanner.index += 1; return
            default:
                throw .syntax(scanner.failure("expected ',' or '}' in an object but found \(scanner.describeCurrent())"))
            }
        }
    }

    /// A member name written with escapes (`"objectI\u0064s"` is still `objectIds`): decoded, then dispatched.
    private mutating func readEscapedMember(_ key: JSONByteScanner.StringSpan, into scan: inout ObjectIDScan)
        throws(ObjectIDScanError)
    {
        let quoted = UnsafeBufferPointer(rebasing: scanner.bytes[(key.start - 1)...key.end])
        guard let name = (try? ParsedJSON(reading: quoted))?.stringValue else {
            throw .syntax(JSONScanFailure(kind: .invalid, offset: key.start, reason: "a member name that is not valid UTF-8"))
        }
        switch name {
        case "objectIds": scan.objectIds = try readIDsOrNull()
        case "objectIdFieldName": scan.objectIdFieldName = try readNameOrNull()
        default: try readOtherMember(name: name, into: &scan)
        }
    }

    /// A member name without escapes, checked to be UTF-8 as a JSON parser would.
    private func plainName(_ key: JSONByteScanner.StringSpan) throws(ObjectIDScanError) -> String {
        guard let name = String(validating: UnsafeBufferPointer(rebasing: scanner.bytes[key.start..<key.end]), as: UTF8.self)
        else {
            throw .syntax(JSONScanFailure(kind: .invalid, offset: key.start, reason: "a member name that is not valid UTF-8"))
        }
        return name
    }

    private mutating func readOtherMember(name: String, into scan: inout ObjectIDScan) throws(ObjectIDScanError) {
        let start = scanner.index
        try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.skipValue() }
        if Self.errorMemberNames.contains(name) {
            scan.errorMemberRanges.append((name, start..<scanner.index))
        } else if name == "features" {
            scan.hasFeatures = true
        }
    }

    private mutating func readNameOrNull() throws(ObjectIDScanError) -> String? {
        switch scanner.current {
        case UInt8(ascii: "n"):
            try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.skipLiteral("null") }
            return nil
        case UInt8(ascii: "\""):
            let span = try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.scanString() }
            let quoted = UnsafeBufferPointer(rebasing: scanner.bytes[(span.start - 1)...span.end])
            guard let name = (try? ParsedJSON(reading: quoted))?.stringValue else {
                throw .syntax(JSONScanFailure(kind: .invalid, offset: span.start, reason: "a string that is not valid UTF-8"))
            }
            return name
        default:
            throw .shape("names its object-id field with \(describeValue()), not a string")
        }
    }

    // MARK: The ids

    private mutating func readIDsOrNull() throws(ObjectIDScanError) -> [Int64] {
        switch scanner.current {
        case UInt8(ascii: "n"):
            // Real servers send "objectIds": null when nothing matches.
            try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.skipLiteral("null") }
            return []
        case UInt8(ascii: "["):
            return try readIDs()
        default:
            throw .shape("has objectIds that are \(describeValue()), not an array")
        }
    }

    private mutating func readIDs() throws(ObjectIDScanError) -> [Int64] {
        scanner.index += 1  // [
        var ids: [Int64] = []
        ids.reserveCapacity(expectedCount())
        scanner.skipWhitespace()
        if scanner.current == UInt8(ascii: "]") {
            scanner.index += 1
            return ids
        }
        let bytes = scanner.bytes
        while true {
            ids.append(try readID())
            if scanner.index < bytes.count, bytes[scanner.index] == UInt8(ascii: ",") {
                scanner.index += 1
                scanner.skipWhitespace()
                continue
            }
            scanner.skipWhitespace()
            switch scanner.current {
            case UInt8(ascii: ","):
                scanner.index += 1
                scanner.skipWhitespace()
            case UInt8(ascii: "]"):
                scanner.index += 1
                return ids
            default:
                throw .syntax(scanner.failure("expected ',' or ']' in the objectIds array but found \(scanner.describeCurrent())"))
            }
        }
    }

    /// The number of ids in the array that starts at the read position, for an exact reservation: one fast
    /// pass counting commas up to the first ']' (ids arrays hold no strings or nested arrays; if this one
    /// does, reading it fails anyway, and the count is still bounded by the body's size).
    private func expectedCount() -> Int {
        let bytes = scanner.bytes
        let start = scanner.index
        guard start < bytes.count, let base = bytes.baseAddress else { return 0 }
        var end = bytes.count
        if let found = memchr(base + start, Int32(UInt8(ascii: "]")), bytes.count - start) {
            end = start + (UnsafeRawPointer(found) - UnsafeRawPointer(base + start))
        }
        var commas = 0
        for offset in start..<end where bytes[offset] == UInt8(ascii: ",") {
            commas &+= 1
        }
        return commas + 1
    }

    /// One id: an integer literal read straight from the bytes, with a slow path for integral numbers written
    /// with a fraction or exponent (`12.0`, `1e3`).
    @inline(__always)
    private mutating func readID() throws(ObjectIDScanError) -> Int64 {
        let bytes = scanner.bytes
        let start = scanner.index
        var index = start
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < bytes.count else {
            scanner.index = index
            throw .syntax(scanner.failure("the input ends where an object id was expected"))
        }
        let first = bytes[index] &- UInt8(ascii: "0")
        guard first < 10 else {
            scanner.index = index
            if negative { throw .syntax(scanner.failure("a '-' not followed by a digit")) }
            throw try notAnID()
        }
        var value = UInt64(first)
        index += 1
        var digits = 1
        if first == 0 {
            if index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                scanner.index = index
                throw .syntax(scanner.failure("a number with a leading zero"))
            }
        } else {
            while index < bytes.count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                value = value &* 10 &+ UInt64(digit)
                digits += 1
                index += 1
            }
        }
        if index < bytes.count {
            let next = bytes[index]
            if next == UInt8(ascii: ".") || next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                scanner.index = start
                return try readNonLiteralID()
            }
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard digits <= 19, value <= limit else {
            scanner.index = start
            throw .shape("has an object id outside the 64-bit integer range at byte \(start)")
        }
        scanner.index = index
        return negative ? Int64(bitPattern: 0 &- value) : Int64(bitPattern: value)
    }

    /// An id written as `12.0` or `1.2e1`: accepted when it is an integer a Double holds exactly.
    private mutating func readNonLiteralID() throws(ObjectIDScanError) -> Int64 {
        let start = scanner.index
        try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.skipNumber() }
        let text = UnsafeBufferPointer(rebasing: scanner.bytes[start..<scanner.index])
        guard case .number(let number)? = try? ParsedJSON(reading: text),
            let id = Int64(exactly: number), id.magnitude <= 1 << 53
        else {
            let literal = String(decoding: text.prefix(40), as: UTF8.self)
            throw .shape("has an object id that is not an integer: \(literal) at byte \(start)")
        }
        return id
    }

    /// The error for a value in the ids array that is not a number (a string, null, an object...).
    private mutating func notAnID() throws(ObjectIDScanError) -> ObjectIDScanError {
        let start = scanner.index
        let description = describeValue()
        // Check it is a well-formed value first: a stray byte or a cut is a syntax error, not a shape one.
        try syntax { (s: inout JSONByteScanner) throws(JSONScanFailure) in try s.skipValue() }
        return .shape("has an object id that is not an integer: \(description) at byte \(start)")
    }

    // MARK: Helpers

    /// Runs one scanner step, wrapping its failure.
    @inline(__always)
    private mutating func syntax<T>(_ step: (inout JSONByteScanner) throws(JSONScanFailure) -> T) throws(ObjectIDScanError) -> T {
        do throws(JSONScanFailure) {
            return try step(&scanner)
        } catch {
            throw .syntax(error)
        }
    }

    /// What kind of value starts at the read position, for messages.
    private func describeValue() -> String {
        switch scanner.current {
        case UInt8(ascii: "\"")?: return "a string"
        case UInt8(ascii: "{")?: return "an object"
        case UInt8(ascii: "[")?: return "an array"
        case UInt8(ascii: "t")?, UInt8(ascii: "f")?: return "a boolean"
        case UInt8(ascii: "n")?: return "null"
        case UInt8(ascii: "-")?, (UInt8(ascii: "0")...UInt8(ascii: "9"))?: return "a number"
        case nil: return "nothing (the body ends)"
        default: return scanner.describeCurrent()
        }
    }
}
