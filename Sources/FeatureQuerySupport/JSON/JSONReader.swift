/// A strict RFC 8259 parser from UTF-8 bytes to ``ParsedJSON``, written for hostile input: every read is
/// bounds-checked, nesting is limited before recursing, and every failure is a ``JSONReadError`` that names
/// the byte offset. It does not use Foundation.
struct JSONReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private let maxDepth: Int
    /// The members of the objects being read, innermost last: an object's members wait here until its `}`, so its
    /// dictionary is made once at its final size. Inserting into a growing dictionary instead rehashed every
    /// member at each growth (an object of 10 members hashed its keys 20 times and allocated 4 tables).
    private var pendingMembers: [(key: String, value: ParsedJSON)] = []

    private init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// The common cases, bytes in contiguous memory (a message, a response body or a range of it), without
    /// the generic path's metadata lookups and contiguous-storage witness.
    static func parse(contiguous buffer: UnsafeBufferPointer<UInt8>, limits: JSONReadingLimits) throws(JSONReadError) -> ParsedJSON {
        guard buffer.count <= limits.maxBytes else {
            throw JSONReadError(
                .limitExceeded, "the input is \(buffer.count) bytes; the limit is \(limits.maxBytes) (raise maxBytes)")
        }
        return try parse(buffer: buffer, limits: limits)
    }

    static func parse(_ input: some Collection<UInt8>, limits: JSONReadingLimits) throws(JSONReadError) -> ParsedJSON {
        let count = input.count
        guard count <= limits.maxBytes else {
            throw JSONReadError(
                .limitExceeded, "the input is \(count) bytes; the limit is \(limits.maxBytes) (raise maxBytes)")
        }
        let contiguous = input.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONReadError) in try parse(buffer: buffer, limits: limits) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(input).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONReadError) in try parse(buffer: buffer, limits: limits) }
        }.get()
    }

    static func parse(_ text: String, limits: JSONReadingLimits) throws(JSONReadError) -> ParsedJSON {
        var text = text
        // Through the collection entry point, which checks the byte limit first.
        return try text.withUTF8 { buffer in
            Result { () throws(JSONReadError) in try parse(buffer, limits: limits) }
        }.get()
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, limits: JSONReadingLimits) throws(JSONReadError) -> ParsedJSON {
        var reader = JSONReader(bytes: buffer, maxDepth: limits.maxDepth)
        reader.skipWhitespace()
        guard reader.index < buffer.count else {
            throw JSONReadError(.malformed, "the input is empty or only whitespace; expected a JSON value")
        }
        let value = try reader.parseValue()
        reader.skipWhitespace()
        guard reader.index == buffer.count else {
            throw reader.failure("unexpected \(reader.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    // MARK: Values

    private mutating func parseValue() throws(JSONReadError) -> ParsedJSON {
        guard index < bytes.count else { throw failure("the input ends where a value was expected (truncated?)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func enterContainer() throws(JSONReadError) {
        depth += 1
        guard depth <= maxDepth else {
            throw JSONReadError(
                .limitExceeded,
                "the JSON is nested more than \(maxDepth) levels deep at byte \(index) (raise maxDepth if this is intended)")
        }
    }

    private mutating func parseArray() throws(JSONReadError) -> ParsedJSON {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // [
        var items: [ParsedJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ends inside an array (truncated?)") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(items)
            default: throw failure("expected ',' or ']' in an array but found \(describeCurrent())")
            }
        }
    }

    private mutating func parseObject() throws(JSONReadError) -> ParsedJSON {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object([:])
        }
        let first = pendingMembers.count
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes but found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the member name \"\(key.prefix(40))\" but found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            pendingMembers.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw failure("the input ends inside an object (truncated?)") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(takeMembers(from: first))
            default: throw failure("expected ',' or '}' in an object but found \(describeCurrent())")
            }
        }
    }

    /// The object whose members start at `first` in ``pendingMembers``, which drops them. The last of duplicate
    /// keys wins, as members are inserted in document order.
    private mutating func takeMembers(from first: Int) -> [String: ParsedJSON] {
        var members = [String: ParsedJSON](minimumCapacity: pendingMembers.count - first)
        for index in first..<pendingMembers.count {
            members[pendingMembers[index].key] = pendingMembers[index].value
        }
        pendingMembers.removeSubrange(first...)
        return members
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONReadError) {
        let length = literal.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw failure("the input ends inside the literal \(literal)") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<length).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw failure("unexpected \(describeCurrent()); expected \(literal)") }
        index += length
    }

    // MARK: Strings

    private mutating func parseString() throws(JSONReadError) -> String {
        index += 1  // opening quote
        let start = index
        var allBits: UInt8 = 0  // the OR of the string's bytes: below 0x80 means ASCII, valid UTF-8 as it stands
        while index < bytes.count {
            let byte = bytes[index]
            allBits |= byte
            if byte == UInt8(ascii: "\"") {
                let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
                let text = allBits < 0x80 ? String(decoding: run, as: UTF8.self) : try makeString(run)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try parseEscapedString(from: start) }
            if byte < 0x20 { throw failure("a control character (0x\(String(byte, radix: 16))) inside a string") }
            index += 1
        }
        throw failure("the input ends inside a string (truncated?)")
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONReadError) -> String {
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try utf8.withUnsafeBufferPointer { buffer in
                    Result { () throws(JSONReadError) in try makeString(buffer) }
                }.get()
            case UInt8(ascii: "\\"):
                try appendEscape(to: &utf8)
            case 0..<0x20:
                index -= 1
                throw failure("a control character (0x\(String(byte, radix: 16))) inside a string")
            default:
                utf8.append(byte)
            }
        }
        throw failure("the input ends inside a string (truncated?)")
    }

    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONReadError) {
        guard index < bytes.count else { throw failure("the input ends inside an escape sequence") }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(code)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw failure("a lone UTF-16 high surrogate in a \\u escape") }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw failure("an invalid UTF-16 surrogate pair") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw failure("a lone UTF-16 low surrogate in a \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw failure("an invalid \\u escape") }
            UTF8.encode(unicode) { utf8.append($0) }
        default:
            index -= 1
            throw failure("an invalid escape \\\(describeCurrent())")
        }
    }

    private mutating func readHex4() throws(JSONReadError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("the input ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("a \\u escape needs four hex digits; found \(describeCurrent())")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>) throws(JSONReadError) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else {
            throw failure("a string that is not valid UTF-8")
        }
        return text
    }

    // MARK: Numbers

    private mutating func parseNumber() throws(JSONReadError) -> Double {
        let start = index
        var scanner = JSONNumberScanner()
        try scanner.scan(bytes, at: &index)
        let end = index
        if let fast = scanner.exactValue { return fast }
        if let value = CNumberParser.parse(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return value }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        guard let value = Double(text) else { throw failure("the number \(text.prefix(40)) cannot be read") }
        return value
    }

    // MARK: Helpers

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    private func failure(_ message: String) -> JSONReadError {
        JSONReadError(.malformed, "\(message) at byte \(index)")
    }
}
