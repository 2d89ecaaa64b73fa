/// Why a ``JSONByteScanner`` stopped: the input ended where more was expected (a truncated body, worth
/// retrying), or it broke the JSON grammar.
package struct JSONScanFailure: Error, Sendable {
    package enum Kind: Sendable { case truncated, invalid, tooDeep }

    package var kind: Kind
    /// The byte offset in the scanned buffer where the problem sits.
    package var offset: Int
    /// What was wrong, for a person ("expected ',' or ']' in an array but found 'x'").
    package var reason: String

    package init(kind: Kind, offset: Int, reason: String) {
        self.kind = kind
        self.offset = offset
        self.reason = reason
    }
}

/// A forward-only reader over JSON bytes that checks RFC 8259 syntax while it skips values, without building
/// anything: for responses too large to turn into a `ParsedJSON` tree (2.4 million object ids), and to tell a
/// truncated body from a broken one.
///
/// Every read is bounds-checked; nesting is limited before recursing. A failure at the end of the input is
/// ``JSONScanFailure/Kind/truncated``: the body stopped where the grammar needed more.
package struct JSONByteScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var index: Int
    package let maxDepth: Int

    package init(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int = 0, maxDepth: Int = 128) {
        self.bytes = bytes
        self.index = index
        self.maxDepth = maxDepth
    }

    /// The byte at the read position; nil at the end.
    @inline(__always) package var current: UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    @inline(__always) package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// A failure at the read position: truncated when the input has ended there.
    package func failure(_ reason: String) -> JSONScanFailure {
        JSONScanFailure(kind: index >= bytes.count ? .truncated : .invalid, offset: index, reason: reason)
    }

    /// The byte at the read position, for messages: `'x'`, `byte 0x1f`, or `the end of the input`.
    package func describeCurrent() -> String {
        guard index < bytes.count else { return "the end of the input" }
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    /// Checks that the whole buffer is one JSON value with only whitespace around it.
    package static func check(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int = 128) -> JSONScanFailure? {
        var scanner = JSONByteScanner(bytes, maxDepth: maxDepth)
        do throws(JSONScanFailure) {
            scanner.skipWhitespace()
            guard scanner.index < bytes.count else { return scanner.failure("the input is empty") }
            try scanner.skipValue()
            try scanner.expectEnd()
            return nil
        } catch {
            return error
        }
    }

    /// After the top-level value: only whitespace may follow.
    package mutating func expectEnd() throws(JSONScanFailure) {
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeCurrent()) after the end of the JSON value")
        }
    }

    /// Requires `byte` at the read position (after whitespace) and steps over it.
    package mutating func expect(_ byte: UInt8, _ what: String) throws(JSONScanFailure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else {
            throw failure("expected \(what) but found \(describeCurrent())")
        }
        index += 1
    }

    // MARK: Skipping values

    /// Steps over one value of any kind, checking its syntax.
    package mutating func skipValue(depth: Int = 0) throws(JSONScanFailure) {
        guard index < bytes.count else { throw failure("the input ends where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try skipObject(depth: depth + 1)
        case UInt8(ascii: "["): try skipArray(depth: depth + 1)
        case UInt8(ascii: "\""): _ = try scanString()
        case UInt8(ascii: "t"): try skipLiteral("true")
        case UInt8(ascii: "f"): try skipLiteral("false")
        case UInt8(ascii: "n"): try skipLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: throw failure("unexpected \(describeCurrent()) where a value was expected")
        }
    }

    private mutating func enter(_ depth: Int) throws(JSONScanFailure) {
        guard depth <= maxDepth else {
            throw JSONScanFailure(
                kind: .tooDeep, offset: index, reason: "the JSON is nested more than \(maxDepth) levels deep")
        }
    }

    private mutating func skipArray(depth: Int) throws(JSONScanFailure) {
        try enter(depth)
        index += 1  // [
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            try skipValue(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return
            default: throw failure("expected ',' or ']' in an array but found \(describeCurrent())")
            }
        }
    }

    private mutating func skipObject(depth: Int) throws(JSONScanFailure) {
        try enter(depth)
        index += 1  // {
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes but found \(describeCurrent())")
            }
            _ = try scanString()
            try expect(UInt8(ascii: ":"), "':' after a member name")
            skipWhitespace()
            try skipValue(depth: depth)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return
            default: throw failure("expected ',' or '}' in an object but found \(describeCurrent())")
            }
        }
    }

    package mutating func skipLiteral(_ literal: StaticString) throws(JSONScanFailure) {
        let length = literal.utf8CodeUnitCount
        let start = index
        let matches = literal.withUTF8Buffer { expected -> Bool in
            for offset in 0..<length {
                guard start + offset < bytes.count else { return false }
                guard bytes[start + offset] == expected[offset] else {
                    return false
                }
            }
            return true
        }
        guard matches else {
            // Point at the first byte that differs, so an input cut inside the literal reads as truncated.
            var at = start
            literal.withUTF8Buffer { expected in
                while at < bytes.count, at - start < length, bytes[at] == expected[at - start] { at += 1 }
            }
            index = at
            throw failure("unexpected \(describeCurrent()); expected \(literal)")
        }
        index += length
    }

    /// Steps over one number, checking the grammar (no leading zeros, digits after '.' and in exponents).
    package mutating func skipNumber() throws(JSONScanFailure) {
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, isDigit(first) else { throw failure("a '-' not followed by a digit") }
        index += 1
        if first == UInt8(ascii: "0") {
            if let next = current, isDigit(next) { throw failure("a number with a leading zero") }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let next = current, isDigit(next) else { throw failure("a '.' not followed by a digit") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let next = current, isDigit(next) else { throw failure("an exponent with no digits") }
            skipDigits()
        }
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    @inline(__always) private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    // MARK: Strings

    /// Where a string's content lies (between the quotes) and whether it holds escapes.
    package struct StringSpan {
        package var start: Int
        package var end: Int
        package var hasEscapes: Bool

        package init(start: Int, end: Int, hasEscapes: Bool) {
            self.start = start
            self.end = end
            self.hasEscapes = hasEscapes
        }
    }

    /// Steps over a string starting at its opening quote, checking escapes and control characters (not
    /// UTF-8: strings read as text are validated when they are made into `String`s).
    package mutating func scanString() throws(JSONScanFailure) -> StringSpan {
        index += 1  // opening quote
        let start = index
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let span = StringSpan(start: start, end: index, hasEscapes: hasEscapes)
                index += 1
                return span
            }
            if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                try skipEscape()
                continue
            }
            if byte < 0x20 { throw failure("a control character (0x\(String(byte, radix: 16))) inside a string") }
            index += 1
        }
        throw failure("the input ends inside a string")
    }

    private mutating func skipEscape() throws(JSONScanFailure) {
        index += 1  // backslash
        guard let code = current else { throw failure("the input ends inside an escape sequence") }
        switch code {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            index += 1
        case UInt8(ascii: "u"):
            index += 1
            for _ in 0..<4 {
                guard let digit = current else { throw failure("the input ends inside a \\u escape") }
                guard digit.isASCIIHexDigit else {
                    throw failure("a \\u escape needs four hex digits; found \(describeCurrent())")
                }
                index += 1
            }
        default:
            throw failure("an invalid escape \\\(describeCurrent())")
        }
    }

    /// Whether the content of `span` is exactly `name` (a plain ASCII member name, no escapes).
    package func spanEquals(_ span: StringSpan, _ name: StaticString) -> Bool {
        guard !span.hasEscapes, span.end - span.start == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            for offset in 0..<expected.count where bytes[span.start + offset] != expected[offset] {
                return false
            }
            return true
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIHexDigit: Bool {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
            UInt8(ascii: "A")...UInt8(ascii: "F"):
            return true
        default:
            return false
        }
    }
}
