/// The language a clause is written in; the lexer and parser differ in a few places.
enum Dialect: Sendable {
    /// ArcGIS standardized-query SQL: `DATE 'x'`, `LIKE ... ESCAPE`, the SQL functions.
    case arcGISSQL
    /// OGC CQL2 text: `DATE('x')`, `\` as the `LIKE` escape, `\'` in strings, `:` in property names, `CASEI`.
    case cql2Text
}

/// Reserved words. Field names spelled like one must be double-quoted.
enum Keyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN", between = "BETWEEN", like = "LIKE"
    case escape = "ESCAPE", `is` = "IS", null = "NULL", date = "DATE", timestamp = "TIMESTAMP"
    case cast = "CAST", `as` = "AS", from = "FROM", `for` = "FOR"
    case currentDate = "CURRENT_DATE", currentTimestamp = "CURRENT_TIMESTAMP"
    case `true` = "TRUE", `false` = "FALSE"
    // Never valid in a where clause; reserved so that the error can say why.
    case select = "SELECT", exists = "EXISTS", union = "UNION"

    /// The keyword spelled by these bytes in any letter case, if any; no allocation, no hashing.
    static func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Keyword? {
        guard bytes.count >= 2, bytes.count <= 17, let first = bytes.first else { return nil }
        let letter = first & 0xDF
        guard letter >= 0x41, letter <= 0x5A else { return nil }
        for keyword in byFirstLetter[Int(letter - 0x41)]
        where ReservedWords.equalsIgnoringCase(bytes, keyword.rawValue.utf8) {
            return keyword
        }
        return nil
    }

    private static let byFirstLetter: [[Keyword]] = {
        var table = [[Keyword]](repeating: [], count: 26)
        for keyword in Keyword.allCases {
            table[Int((keyword.rawValue.utf8.first ?? 0x41) - 0x41)].append(keyword)
        }
        return table
    }()
}

/// Words a field name must not be written as, bare: the keywords, and the words with a meaning inside
/// function calls (`TRIM(LEADING ...)`, `CAST(x AS INTEGER)`) or in CQL2. Such names are quoted when
/// rendered, so that no reader can take them for keywords.
enum ReservedWords {
    static let contextual: [String] = [
        "BOTH", "LEADING", "TRAILING", "INTEGER", "INT", "SMALLINT", "FLOAT", "REAL", "VARCHAR", "CHAR", "CHARACTER",
        "DOUBLE", "PRECISION", "INTERVAL", "DIV", "CASEI", "ACCENTI",
    ]

    static func isReserved(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if Keyword.match(bytes) != nil { return true }
        guard bytes.count <= 9 else { return false }
        for word in contextual where equalsIgnoringCase(bytes, word.utf8) { return true }
        return false
    }

    static func isReserved(_ bytes: Substring.UTF8View) -> Bool {
        guard bytes.count <= 17 else { return false }
        if let reserved = bytes.withContiguousStorageIfAvailable({ isReserved($0) }) { return reserved }
        return Array(bytes).withUnsafeBufferPointer { isReserved($0) }
    }

    /// Whether `bytes` spell `upper` (ASCII upper case) in any letter case.
    @inline(__always)
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ upper: String.UTF8View) -> Bool {
        guard bytes.count == upper.count else { return false }
        var index = 0
        for expected in upper {
            let byte = bytes[index]
            let folded = byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte
            if folded != expected { return false }
            index += 1
        }
        return true
    }
}

enum Symbol: Sendable, Equatable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case plus, minus, star, slash, leftParen, rightParen, comma

    var comparison: ComparisonOperator? {
        switch self {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        default: return nil
        }
    }

    var text: String {
        switch self {
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .leftParen: return "("
        case .rightParen: return ")"
        case .comma: return ","
        }
    }
}

enum TokenKind: Sendable, Equatable {
    case end
    /// A bare word that is not a keyword: a field or function name.
    case identifier
    /// A `"double-quoted"` field name; ``Token/value`` holds it unescaped.
    case quotedIdentifier
    case keyword(Keyword)
    /// Digits only.
    case integer
    /// Digits with a fraction or an exponent.
    case decimal
    /// A `'quoted'` string; ``Token/value`` holds it unescaped.
    case string
    case symbol(Symbol)
}

struct Token: Sendable {
    var kind: TokenKind
    /// UTF-8 offsets of the token in the clause.
    var start: Int
    var end: Int
    /// The unescaped text of strings and quoted identifiers; empty for other tokens.
    var value: String = ""
}
