/// Splits a clause's UTF-8 bytes into tokens, one at a time, in a single forward pass.
///
/// Works on bytes, not characters, for speed; non-ASCII text is decoded only inside names and strings. It
/// refuses comments and `;` outright (the injection guard), and counts tokens against
/// ``ClauseLimits/maxTokens``.
struct Lexer {
    let bytes: [UInt8]
    let dialect: Dialect
    let limits: ClauseLimits
    private(set) var position = 0
    private var tokenCount = 0

    init(bytes: [UInt8], dialect: Dialect, limits: ClauseLimits) {
        self.bytes = bytes
        self.dialect = dialect
        self.limits = limits
    }

    mutating func next() throws(QueryLanguageError) -> Token {
        skipWhitespace()
        guard position < bytes.count else { return Token(kind: .end, start: bytes.count, end: bytes.count) }
        tokenCount += 1
        let start = position
        if tokenCount > limits.maxTokens {
            throw fail(.tooManyTokens, at: start) {
                "the clause has more than \(limits.maxTokens) tokens (column \($0)); split it or use fewer values"
            }
        }
        let byte = bytes[start]
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x5F:
            return try identifier(from: start)
        case 0x30...0x39:
            return try number(from: start)
        case 0x2E where start + 1 < bytes.count && isDigit(bytes[start + 1]):
            return try number(from: start)
        case 0x27:
            return try string(from: start)
        case 0x22:
            return try quotedIdentifier(from: start)
        case 0x3D: return symbol(.equal, length: 1)
        case 0x3C:
            if peekByte(1) == 0x3D { return symbol(.lessOrEqual, length: 2) }
            if peekByte(1) == 0x3E { return symbol(.notEqual, length: 2) }
            return symbol(.less, length: 1)
        case 0x3E:
            return peekByte(1) == 0x3D ? symbol(.greaterOrEqual, length: 2) : symbol(.greater, length: 1)
        case 0x21 where peekByte(1) == 0x3D:
            return symbol(.notEqual, length: 2)
        case 0x2B: return symbol(.plus, length: 1)
        case 0x2A: return symbol(.star, length: 1)
        case 0x2C: return symbol(.comma, length: 1)
        case 0x28: return symbol(.leftParen, length: 1)
        case 0x29: return symbol(.rightParen, length: 1)
        case 0x2D:
            if peekByte(1) == 0x2D {
                throw fail(.forbiddenConstruct, at: start) {
                    "comments are not allowed in a where clause ('--' at column \($0)); to subtract a negative "
                        + "number write a space between the minus signs"
                }
            }
            return symbol(.minus, length: 1)
        case 0x2F:
            if peekByte(1) == 0x2A {
                throw fail(.forbiddenConstruct, at: start) {
                    "comments are not allowed in a where clause ('/*' at column \($0))"
                }
            }
            return symbol(.slash, length: 1)
        case 0x3B:
            throw fail(.forbiddenConstruct, at: start) {
                "';' is not allowed (column \($0)): a where clause is a single condition, not a list of statements"
            }
        case 0x80...:
            let (scalar, _) = scalar(at: start)
            if isIdentifierScalar(scalar) { return try identifier(from: start) }
            throw unexpectedCharacter(at: start)
        default:
            throw unexpectedCharacter(at: start)
        }
    }

    // MARK: - Token kinds

    private mutating func identifier(from start: Int) throws(QueryLanguageError) -> Token {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if isASCIIWordByte(byte) || (byte == 0x3A && dialect == .cql2Text) {
                index += 1
            } else if byte == 0x2E, index + 1 < bytes.count, isNameStart(at: index + 1) {
                index += 1
            } else if byte >= 0x80 {
                let (scalar, length) = scalar(at: index)
                guard isIdentifierScalar(scalar) else { break }
                index += length
            } else {
                break
            }
        }
        position = index
        if index - start > limits.maxIdentifierBytes {
            throw fail(.identifierTooLong, at: start) {
                "the name at column \($0) is longer than \(limits.maxIdentifierBytes) bytes"
            }
        }
        let keyword = bytes.withUnsafeBufferPointer { Keyword.match(UnsafeBufferPointer(rebasing: $0[start..<index])) }
        if let keyword {
            return Token(kind: .keyword(keyword), start: start, end: index)
        }
        return Token(kind: .identifier, start: start, end: index)
    }

    private mutating func number(from start: Int) throws(QueryLanguageError) -> Token {
        var index = start
        var isDecimal = false
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if index < bytes.count, bytes[index] == 0x2E {
            isDecimal = true
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == 0x45 || bytes[index] == 0x65 {
            isDecimal = true
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            let digitsStart = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            if index == digitsStart { throw invalidNumber(from: start, to: index) }
        }
        if index < bytes.count, bytes[index] == 0x2E || isNameStart(at: index) {
            throw invalidNumber(from: start, to: index + 1)
        }
        position = index
        return Token(kind: isDecimal ? .decimal : .integer, start: start, end: index)
    }

    private mutating func string(from start: Int) throws(QueryLanguageError) -> Token {
        var index = start + 1
        var segmentStart = index
        // Filled only once an escaped quote shows up; appended in place, so the pass stays linear.
        var unescaped: [UInt8] = []
        var hasEscapes = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x27 {
                if index + 1 < bytes.count, bytes[index + 1] == 0x27 {
                    unescaped.append(contentsOf: bytes[segmentStart...index])
                    hasEscapes = true
                    index += 2
                    segmentStart = index
                    continue
                }
                position = index + 1
                let value: String
                if hasEscapes {
                    unescaped.append(contentsOf: bytes[segmentStart..<index])
                    value = String(decoding: unescaped, as: UTF8.self)
                } else {
                    value = String(decoding: bytes[segmentStart..<index], as: UTF8.self)
                }
                return Token(kind: .string, start: start, end: position, value: value)
            }
            if byte == 0x5C, dialect == .cql2Text, index + 1 < bytes.count, bytes[index + 1] == 0x27 {
                unescaped.append(contentsOf: bytes[segmentStart..<index])
                unescaped.append(0x27)
                hasEscapes = true
                index += 2
                segmentStart = index
                continue
            }
            if byte == 0 { throw unexpectedCharacter(at: index) }
            index += 1
        }
        throw fail(.unterminatedString, at: start) {
            "unterminated string starting at column \($0): close it with ' (write '' for a quote inside it)"
        }
    }

    private mutating func quotedIdentifier(from start: Int) throws(QueryLanguageError) -> Token {
        var index = start + 1
        var name: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 {
                if index + 1 < bytes.count, bytes[index + 1] == 0x22 {
                    name.append(0x22)
                    index += 2
                    continue
                }
                position = index + 1
                if name.isEmpty {
                    throw fail(.syntaxError, at: start) { "empty field name \"\" at column \($0)" }
                }
                if name.count > limits.maxIdentifierBytes {
                    throw fail(.identifierTooLong, at: start) {
                        "the name at column \($0) is longer than \(limits.maxIdentifierBytes) bytes"
                    }
                }
                return Token(
                    kind: .quotedIdentifier, start: start, end: position, value: String(decoding: name, as: UTF8.self))
            }
            if byte == 0 { throw unexpectedCharacter(at: index) }
            name.append(byte)
            index += 1
        }
        throw fail(.unterminatedIdentifier, at: start) {
            "unterminated field name starting at column \($0): close it with \""
        }
    }

    private mutating func symbol(_ symbol: Symbol, length: Int) -> Token {
        let start = position
        position += length
        return Token(kind: .symbol(symbol), start: start, end: position)
    }

    // MARK: - Bytes and scalars

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C: position += 1
            default: return
            }
        }
    }

    private func peekByte(_ distance: Int) -> UInt8? {
        position + distance < bytes.count ? bytes[position + distance] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func isASCIIWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || isDigit(byte)
    }

    /// Whether a name can start at `index`: an ASCII letter, `_`, or a non-ASCII letter.
    private func isNameStart(at index: Int) -> Bool {
        let byte = bytes[index]
        if (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F { return true }
        return byte >= 0x80 && isIdentifierScalar(scalar(at: index).scalar)
    }

    /// Letters, digits and combining marks of any script may appear in a name.
    private func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isAlphabetic { return true }
        switch scalar.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark: return true
        default: return false
        }
    }

    /// Decodes the scalar starting at `index`; malformed bytes (impossible in a Swift string) read as U+FFFD.
    func scalar(at index: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = bytes[index]
        let length = lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard lead >= 0xC2, lead <= 0xF4, index + length <= bytes.count else { return ("\u{FFFD}", 1) }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return ("\u{FFFD}", 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    // MARK: - Errors

    func fail(_ code: QueryLanguageError.Code, at offset: Int, _ message: (Int) -> String) -> QueryLanguageError {
        let column = SourceColumn.column(in: bytes, at: offset)
        return QueryLanguageError(code: code, message: message(column), column: column)
    }

    private func unexpectedCharacter(at offset: Int) -> QueryLanguageError {
        let (scalar, _) = bytes[offset] < 0x80 ? (Unicode.Scalar(bytes[offset]), 1) : scalar(at: offset)
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let printable = scalar.value > 0x20 && scalar.value != 0x7F && !scalar.properties.isWhitespace
        let shown = printable ? "'\(Character(scalar))' (\(code))" : code
        return fail(.unexpectedCharacter, at: offset) { "unexpected character \(shown) at column \($0)" }
    }

    private func invalidNumber(from start: Int, to end: Int) -> QueryLanguageError {
        let text = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self)
        return fail(.invalidNumber, at: start) {
            "malformed number '\(SourceColumn.excerpt(text))' at column \($0)"
        }
    }
}
