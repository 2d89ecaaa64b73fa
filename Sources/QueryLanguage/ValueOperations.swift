/// Comparison and arithmetic on attribute values, with SQL's treatment of NULL.
///
/// Integers and doubles compare by exact numeric value; strings by Swift's `String` comparison (Unicode
/// canonical equivalence), case-sensitively as SQL does by default; dates by instant. A NULL, or values of
/// different kinds (only possible without validation), compare as unknown. Arithmetic on a NULL gives NULL;
/// integer overflow continues in double precision; `/` always divides exactly (7 / 2 is 3.5), and
/// division by zero gives NULL rather than failing the whole query.
enum ValueOperations {
    /// -1, 0 or 1; nil when unknown.
    @inline(__always)
    static func compare(_ a: AttributeValue, _ b: AttributeValue) -> Int? {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? -1 : (x == y ? 0 : 1)
        case (.integer(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .integer(let y)): return compare(y, x).map { -$0 }
        case (.string(let x), .string(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        default: return nil
        }
    }

    /// Equality alone, which for strings avoids an ordering comparison; nil when unknown.
    @inline(__always)
    static func equals(_ a: AttributeValue, _ b: AttributeValue) -> Bool? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        default: return compare(a, b).map { $0 == 0 }
        }
    }

    /// Exact comparison of an integer with a double (no rounding of large integers).
    static func compare(_ integer: Int64, _ double: Double) -> Int? {
        if double.isNaN { return nil }
        if double >= 9_223_372_036_854_775_808.0 { return -1 }
        if double < -9_223_372_036_854_775_808.0 { return 1 }
        let floor = double.rounded(.down)
        let whole = Int64(floor)
        if integer < whole { return -1 }
        if integer > whole { return 1 }
        return double > floor ? -1 : 0
    }

    static func arithmetic(_ op: ArithmeticOperator, _ a: AttributeValue, _ b: AttributeValue) -> AttributeValue {
        if case .integer(let x) = a, case .integer(let y) = b {
            let result: (partialValue: Int64, overflow: Bool)
            switch op {
            case .add: result = x.addingReportingOverflow(y)
            case .subtract: result = x.subtractingReportingOverflow(y)
            case .multiply: result = x.multipliedReportingOverflow(by: y)
            case .divide: return y == 0 ? .null : .double(Double(x) / Double(y))
            }
            if !result.overflow { return .integer(result.partialValue) }
        }
        guard let x = number(a), let y = number(b) else { return .null }
        let value: Double
        switch op {
        case .add: value = x + y
        case .subtract: value = x - y
        case .multiply: value = x * y
        case .divide:
            if y == 0 { return .null }
            value = x / y
        }
        return value.isFinite ? .double(value) : .null
    }

    /// Unary minus, defined as `-1 * x` so that it agrees with how CQL2 writes it.
    static func negate(_ value: AttributeValue) -> AttributeValue {
        arithmetic(.multiply, .integer(-1), value)
    }

    static func number(_ value: AttributeValue) -> Double? {
        switch value {
        case .integer(let x): return Double(x)
        case .double(let x): return x
        default: return nil
        }
    }

    /// An integer from a number argument (truncated toward zero), nil when not a finite number.
    static func wholeNumber(_ value: AttributeValue) -> Int64? {
        switch value {
        case .integer(let x): return x
        case .double(let x) where x.isFinite && abs(x) < 9.2e18: return Int64(x)
        default: return nil
        }
    }

    /// Rounds half away from zero to a whole number, nil when out of the 64-bit range.
    static func roundedInteger(_ x: Double) -> Int64? {
        let rounded = x.rounded(.toNearestOrAwayFromZero)
        guard rounded.isFinite, rounded >= -9_223_372_036_854_775_808.0, rounded < 9_223_372_036_854_775_808.0
        else { return nil }
        return Int64(rounded)
    }
}
