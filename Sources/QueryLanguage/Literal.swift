/// A constant written in a clause: a number, a quoted string, or a date or timestamp.
///
/// There is no `NULL` literal on purpose: a comparison with `NULL` is never true, so the parser points the
/// writer to `IS NULL` instead (``QueryLanguageError/Code/nullComparison``).
package enum Literal: Hashable, Sendable {
    case integer(Int64)
    /// A finite number with a fraction or exponent, or an integer too large for 64 bits.
    case double(Double)
    case string(String)
    case date(CalendarDate)
    case timestamp(CalendarTimestamp)

    /// The number's canonical spelling: integers as digits, others in Swift's shortest round-trip form
    /// with an upper-case `E` (`1000000.0`, `0.1`, `1E+16`), which SQL, CQL2 and JSON all read back exactly.
    static func canonical(_ value: Double) -> String {
        var text = value.description
        if let index = text.firstIndex(of: "e") { text.replaceSubrange(index...index, with: "E") }
        return text
    }

    /// Whether the literal is a number (where negation folds into it).
    var isNumber: Bool {
        switch self {
        case .integer, .double: return true
        default: return false
        }
    }
}

/// `=`, `<>`, `<`, `<=`, `>`, `>=`.
package enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
    case equal = "="
    case notEqual = "<>"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// The operator with its operands swapped (`5 < x` is `x > 5`).
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }

    /// Whether the operator holds for an ordering result (-1, 0, 1).
    @inline(__always)
    func holds(_ ordering: Int) -> Bool {
        switch self {
        case .equal: return ordering == 0
        case .notEqual: return ordering != 0
        case .less: return ordering < 0
        case .lessOrEqual: return ordering <= 0
        case .greater: return ordering > 0
        case .greaterOrEqual: return ordering >= 0
        }
    }
}

/// `+`, `-`, `*`, `/`.
package enum ArithmeticOperator: String, Hashable, Sendable, CaseIterable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"

    /// Binding strength: `*` and `/` bind tighter than `+` and `-`.
    var precedence: Int { self == .add || self == .subtract ? Precedence.additive : Precedence.multiplicative }
}

/// Which end `TRIM` works on.
package enum TrimEdge: String, Hashable, Sendable, CaseIterable {
    case both = "BOTH"
    case leading = "LEADING"
    case trailing = "TRAILING"
}

/// The type named in `CAST(x AS type)`.
package enum CastTarget: Hashable, Sendable {
    case integer
    case smallInteger
    case float
    case real
    /// `VARCHAR(n)`; values longer than `n` characters are cut.
    case varchar(length: Int?)
    /// `CHAR(n)`; treated as `VARCHAR(n)` (no padding).
    case char(length: Int?)
    case date
    case timestamp

    /// The SQL spelling.
    package var sql: String {
        switch self {
        case .integer: return "INTEGER"
        case .smallInteger: return "SMALLINT"
        case .float: return "FLOAT"
        case .real: return "REAL"
        case .varchar(let length): return length.map { "VARCHAR(\($0))" } ?? "VARCHAR"
        case .char(let length): return length.map { "CHAR(\($0))" } ?? "CHAR"
        case .date: return "DATE"
        case .timestamp: return "TIMESTAMP"
        }
    }
}

/// Binding strengths shared by the parser and the renderers, lowest first.
enum Precedence {
    static let or = 1
    static let and = 2
    static let not = 3
    static let predicate = 4
    static let additive = 5
    static let multiplicative = 6
    static let unary = 7
    static let primary = 8
}
