package import FeatureService
package import QueryLanguage

/// PostgreSQL's `ORDER BY` over attribute values, so both engines put ids, features, statistics rows and
/// distinct rows in the order the database the oracle runs on would.
///
/// - Numbers compare by value: integers and doubles together, exactly (no rounding of large integers through
///   `Double`); NaN is equal to NaN and greater than every other number, as PostgreSQL orders `float8`.
/// - Strings compare by their UTF-8 bytes: PostgreSQL's `C` collation, the only one whose order does not depend
///   on the server's locale (and Swift's `<` on `String` is Unicode order, not this one).
/// - Dates compare by epoch milliseconds.
/// - Null sorts after every value ascending and before every value descending (PostgreSQL's default
///   `NULLS LAST` / `NULLS FIRST`): descending is exactly ascending reversed.
/// - A typed column never mixes kinds, but GeoJSON properties can: different kinds order numbers, dates,
///   strings (then null), so the order stays total.
///
/// Keys are positional: key `i` is the value of `terms[i].field`.
package struct AttributeOrder: Sendable, Hashable {
    package var terms: [OrderTerm]

    package init(_ terms: [OrderTerm]) {
        self.terms = terms
    }

    /// Three-way comparison of two keys under the terms' directions: negative when `a` comes first, zero for a
    /// tie, positive when `b` comes first. Missing trailing values read as null.
    package func compare(_ a: [AttributeValue], _ b: [AttributeValue]) -> Int {
        for (index, term) in terms.enumerated() {
            let left = index < a.count ? a[index] : .null
            let right = index < b.count ? b[index] : .null
            let result = Self.compare(left, right)
            if result != 0 { return term.descending ? -result : result }
        }
        return 0
    }

    /// As ``compare(_:_:)``, with the tie after the last term broken by the caller's id ascending (the object
    /// id, as `orderBy` promises).
    package func compare<ID: Comparable>(_ a: [AttributeValue], id aID: ID, _ b: [AttributeValue], id bID: ID) -> Int {
        let result = compare(a, b)
        if result != 0 { return result }
        return aID < bID ? -1 : (bID < aID ? 1 : 0)
    }

    /// Whether consecutive keys never go backwards (ties allowed): the cheap check of a server's "ordered"
    /// pages, one comparison per record.
    package func isOrdered(_ keys: some Sequence<[AttributeValue]>) -> Bool {
        var previous: [AttributeValue]?
        for key in keys {
            if let previous, compare(previous, key) > 0 { return false }
            previous = key
        }
        return true
    }

    /// Ascending comparison of two values, nulls last (see the type's rules).
    package static func compare(_ a: AttributeValue, _ b: AttributeValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return 1
        case (_, .null): return -1
        case (.integer(let x), .integer(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.double(let x), .double(let y)): return compare(x, y)
        case (.integer(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .integer(let y)): return -compare(y, x)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x), .string(let y)): return compareBytes(x, y)
        default: return kindRank(a) < kindRank(b) ? -1 : 1
        }
    }

    /// Byte order of the UTF-8 forms (the `C` collation).
    package static func compareBytes(_ a: String, _ b: String) -> Int {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?): if x != y { return x < y ? -1 : 1 }
            }
        }
    }

    /// `float8` order: NaN equals NaN and follows every number.
    static func compare(_ x: Double, _ y: Double) -> Int {
        switch (x.isNaN, y.isNaN) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): return x < y ? -1 : (x > y ? 1 : 0)
        }
    }

    /// An integer against a double, exactly: the double's integral part is compared as an `Int64` when it fits,
    /// then its fraction decides.
    static func compare(_ x: Int64, _ y: Double) -> Int {
        if y.isNaN { return -1 }
        if y >= 0x1p63 { return -1 }
        if y < -0x1p63 { return 1 }
        let whole = y.rounded(.towardZero)
        let integral = Int64(whole)
        if x != integral { return x < integral ? -1 : 1 }
        let fraction = y - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    private static func kindRank(_ value: AttributeValue) -> Int {
        switch value {
        case .integer, .double: 0
        case .date: 1
        case .string: 2
        case .null: 3
        }
    }
}
