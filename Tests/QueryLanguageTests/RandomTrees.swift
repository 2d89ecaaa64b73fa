import PropertyBased
import QueryLanguage

/// Random syntax trees for the property tests.
///
/// ``anyCondition(depth:using:)`` covers the whole grammar in the normal form the parser produces (no
/// minus on a number literal, two or more terms in AND and OR), with awkward names and strings, for the
/// parse -> render -> parse round trip. ``typedCondition(depth:using:)`` builds well-typed conditions over
/// the fields of ``typedFields`` from what CQL2 can express, for comparing the ArcGIS and CQL2 renderings
/// by evaluating both.
enum RandomTrees {
    static func expression(_ node: FilterExpression.Node) -> FilterExpression { FilterExpression(node) }

    static func pick<T>(_ choices: [T], using rng: inout some RandomNumberGenerator) -> T {
        choices[Int.random(in: 0..<choices.count, using: &rng)]
    }

    // MARK: - Whole grammar

    static let names = [
        "UseType", "Roll_LandValue", "a", "b_2", "_x", "x1", "DATE", "select", "Leading", "my field", "quo\"te",
        "Straße", "Parcels.APN", "eo:cloud", "CURRENT_DATE", "upper",
    ]
    static let stringPieces = [
        "", "abc", "O'Brien", "''", "%", "_", "\\", "é", "日本", "a b", "\n\t", "--", "/*", ";", "\"", "Residential",
    ]

    static func anyCondition(depth: Int, using rng: inout some RandomNumberGenerator) -> FilterExpression {
        let leaf = depth <= 1
        switch Int.random(in: 0..<(leaf ? 5 : 9), using: &rng) {
        case 0:
            return expression(.comparison(pick(ComparisonOperator.allCases, using: &rng),
                anyValue(depth: depth - 1, using: &rng), anyValue(depth: depth - 1, using: &rng)))
        case 1:
            return expression(.isNull(anyValue(depth: depth - 1, using: &rng), negated: Bool.random(using: &rng)))
        case 2:
            let items = (0..<Int.random(in: 1...4, using: &rng)).map { _ in anyValue(depth: depth - 1, using: &rng) }
            return expression(.inList(anyValue(depth: depth - 1, using: &rng), items, negated: Bool.random(using: &rng)))
        case 3:
            return expression(.between(anyValue(depth: depth - 1, using: &rng), low: anyValue(depth: depth - 1, using: &rng),
                high: anyValue(depth: depth - 1, using: &rng), negated: Bool.random(using: &rng)))
        case 4:
            let escape: Unicode.Scalar? = pick([nil, "!", "\\", "'", "é", "x"], using: &rng)
            return expression(.like(anyValue(depth: depth - 1, using: &rng), pattern: likePattern(escape: escape, using: &rng),
                escape: escape, negated: Bool.random(using: &rng)))
        case 5:
            let terms = (0..<Int.random(in: 2...3, using: &rng)).map { _ in anyCondition(depth: depth - 1, using: &rng) }
            return expression(.and(terms))
        case 6:
            let terms = (0..<Int.random(in: 2...3, using: &rng)).map { _ in anyCondition(depth: depth - 1, using: &rng) }
            return expression(.or(terms))
        default:
            return expression(.not(anyCondition(depth: depth - 1, using: &rng)))
        }
    }

    static func anyValue(depth: Int, using rng: inout some RandomNumberGenerator) -> FilterExpression {
        let leaf = depth <= 1
        switch Int.random(in: 0..<(leaf ? 2 : 5), using: &rng) {
        case 0:
            return expression(.field(pick(names, using: &rng)))
        case 1:
            return expression(.literal(anyLiteral(using: &rng)))
        case 2:
            return expression(.arithmetic(pick(ArithmeticOperator.allCases, using: &rng),
                anyValue(depth: depth - 1, using: &rng), anyValue(depth: depth - 1, using: &rng)))
        case 3:
            var operand = anyValue(depth: depth - 1, using: &rng)
            if case .literal(let literal) = operand.node, literal.isNumberLiteral { operand = expression(.field("n")) }
            return expression(.negate(operand))
        default:
            return expression(.function(anyFunction(depth: depth - 1, using: &rng)))
        }
    }

    static func anyFunction(depth: Int, using rng: inout some RandomNumberGenerator) -> ScalarFunction {
        let x = anyValue(depth: depth, using: &rng)
        switch Int.random(in: 0..<11, using: &rng) {
        case 0: return .upper(x)
        case 1: return .lower(x)
        case 2: return .charLength(x)
        case 3: return .abs(x)
        case 4: return .round(x, digits: pick([nil, 0, 2, -2, 18, -18], using: &rng))
        case 5:
            let length = Bool.random(using: &rng) ? anyValue(depth: depth, using: &rng) : nil
            return .substring(x, start: anyValue(depth: depth, using: &rng), length: length)
        case 6:
            return .trim(x, edge: pick(TrimEdge.allCases, using: &rng), character: pick([nil, " ", "0", "'", "é"], using: &rng))
        case 7:
            let targets: [CastTarget] = [.integer, .smallInteger, .float, .real, .varchar(length: nil),
                .varchar(length: 10), .char(length: 1), .char(length: nil), .date, .timestamp]
            return .cast(x, to: pick(targets, using: &rng))
        case 8: return .currentDate
        case 9: return .currentTimestamp
        default: return .upper(.init(.field(pick(names, using: &rng))))
        }
    }

    static func anyLiteral(using rng: inout some RandomNumberGenerator) -> Literal {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .integer(pick([0, 1, -1, 42, 1_000_000, .max, .min, Int64.random(in: -1000...1000, using: &rng)], using: &rng))
        case 1: return .double(pick([0.5, -0.0, 1e20, 1e-7, 3.14159, -2.5e-300, Double.random(in: -1e6...1e6, using: &rng)], using: &rng))
        case 2, 3: return .string((0..<Int.random(in: 0...3, using: &rng)).map { _ in pick(stringPieces, using: &rng) }.joined())
        case 4: return .date(randomDate(using: &rng))
        default: return .timestamp(randomTimestamp(using: &rng))
        }
    }

    /// Days 1 to 28 exist in every month, so the fallback (1970-01-01) is never used.
    static func randomDate(using rng: inout some RandomNumberGenerator) -> CalendarDate {
        let date = CalendarDate(year: Int.random(in: 1...9999, using: &rng), month: Int.random(in: 1...12, using: &rng),
            day: Int.random(in: 1...28, using: &rng))
        return date ?? CalendarDate(daysSinceEpoch: Int64.random(in: 0...20_000, using: &rng)) ?? dateOfEpoch
    }

    static func randomTimestamp(using rng: inout some RandomNumberGenerator) -> CalendarTimestamp {
        let timestamp = CalendarTimestamp(date: randomDate(using: &rng), hour: Int.random(in: 0...23, using: &rng),
            minute: Int.random(in: 0...59, using: &rng), second: Int.random(in: 0...59, using: &rng),
            millisecond: pick([0, 1, 500, 999], using: &rng))
        return timestamp ?? timestampOfEpoch
    }

    static var dateOfEpoch: CalendarDate { timestampOfEpoch.date }

    static var timestampOfEpoch: CalendarTimestamp {
        guard let epoch = CalendarTimestamp(parsing: "1970-01-01 00:00:00") else {
            preconditionFailure("1970-01-01 is a date")
        }
        return epoch
    }

    /// A pattern in which the escape character, if any, precedes only `%`, `_` or itself.
    static func likePattern(escape: Unicode.Scalar?, using rng: inout some RandomNumberGenerator) -> String {
        var pattern = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...5, using: &rng) {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: pattern.append("%")
            case 1: pattern.append("_")
            case 2:
                if let escape {
                    pattern.append(escape)
                    pattern.append(pick(["%", "_", escape], using: &rng))
                } else {
                    pattern.append("\\")
                }
            default:
                let piece = pick(["ab", "O'", "é", "x", "\\", "!", "Res"], using: &rng).unicodeScalars
                pattern.append(contentsOf: piece.filter { $0 != escape })
            }
        }
        return String(pattern)
    }

    // MARK: - Typed, CQL2-expressible

    static let typedFields = ["i", "d", "s", "t"]
    static let shortStrings = ["", "a", "B", "ab", "AB", "aB", "a%b", "b_", "abc", "ABC", "x!y", "O'k"]
    static let dates: [Int64] = [0, 86_400_000, 1_577_836_800_000, 1_577_836_800_500, -86_400_000]

    static func typedCondition(depth: Int, using rng: inout some RandomNumberGenerator) -> FilterExpression {
        let leaf = depth <= 1
        switch Int.random(in: 0..<(leaf ? 8 : 11), using: &rng) {
        case 0:
            return expression(.comparison(pick(ComparisonOperator.allCases, using: &rng),
                number(depth: depth - 1, using: &rng), number(depth: depth - 1, using: &rng)))
        case 1:
            return expression(.comparison(pick(ComparisonOperator.allCases, using: &rng), text(using: &rng), text(using: &rng)))
        case 2:
            let upper = Bool.random(using: &rng)
            let literal = pick(shortStrings, using: &rng)
            let folded = upper ? literal.uppercased() : literal.lowercased()
            let call: ScalarFunction = upper ? .upper(expression(.field("s"))) : .lower(expression(.field("s")))
            let sides = [expression(.function(call)), expression(.literal(.string(folded)))]
            let flip = Bool.random(using: &rng)
            return expression(.comparison(pick([.equal, .notEqual], using: &rng), sides[flip ? 1 : 0], sides[flip ? 0 : 1]))
        case 3:
            return expression(.comparison(pick(ComparisonOperator.allCases, using: &rng), date(using: &rng), date(using: &rng)))
        case 4:
            let bounds = Bool.random(using: &rng)
                ? (number(depth: 1, using: &rng), number(depth: 1, using: &rng))
                : (text(using: &rng), text(using: &rng))
            let value = bounds.0.isNumeric ? number(depth: 1, using: &rng) : text(using: &rng)
            return expression(.between(value, low: bounds.0, high: bounds.1, negated: Bool.random(using: &rng)))
        case 5:
            let numeric = Bool.random(using: &rng)
            let items = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                numeric ? expression(.literal(.integer(Int64.random(in: -3...3, using: &rng)))) : text(using: &rng)
            }
            return expression(.inList(numeric ? number(depth: 1, using: &rng) : text(using: &rng), items, negated: Bool.random(using: &rng)))
        case 6:
            let escape: Unicode.Scalar? = Bool.random(using: &rng) ? "!" : nil
            var pattern = (0..<Int.random(in: 0...4, using: &rng)).map { _ in pick(["a", "B", "%", "_", "b", "x"], using: &rng) }.joined()
            if escape != nil, Bool.random(using: &rng) { pattern += pick(["!%", "!_", "!!"], using: &rng) }
            let folding = Int.random(in: 0..<3, using: &rng)
            var value = expression(.field("s"))
            if folding == 1 {
                value = expression(.function(.upper(value)))
                pattern = pattern.uppercased()
            } else if folding == 2 {
                value = expression(.function(.lower(value)))
                pattern = pattern.lowercased()
            }
            return expression(.like(value, pattern: pattern, escape: escape, negated: Bool.random(using: &rng)))
        case 7:
            return expression(.isNull(expression(.field(pick(typedFields, using: &rng))), negated: Bool.random(using: &rng)))
        case 8:
            return expression(.and((0..<Int.random(in: 2...3, using: &rng)).map { _ in typedCondition(depth: depth - 1, using: &rng) }))
        case 9:
            return expression(.or((0..<Int.random(in: 2...3, using: &rng)).map { _ in typedCondition(depth: depth - 1, using: &rng) }))
        default:
            return expression(.not(typedCondition(depth: depth - 1, using: &rng)))
        }
    }

    static func number(depth: Int, using rng: inout some RandomNumberGenerator) -> FilterExpression {
        switch Int.random(in: 0..<(depth <= 1 ? 4 : 6), using: &rng) {
        case 0: return expression(.field("i"))
        case 1: return expression(.field("d"))
        case 2: return expression(.literal(.integer(Int64.random(in: -5...5, using: &rng))))
        case 3: return expression(.literal(.double(pick([-2.5, 0.5, 3.0, 1e9], using: &rng))))
        case 4:
            return expression(.arithmetic(pick(ArithmeticOperator.allCases, using: &rng),
                number(depth: depth - 1, using: &rng), number(depth: depth - 1, using: &rng)))
        default: return expression(.negate(expression(.field(pick(["i", "d"], using: &rng)))))
        }
    }

    static func text(using rng: inout some RandomNumberGenerator) -> FilterExpression {
        Bool.random(using: &rng) ? expression(.field("s")) : expression(.literal(.string(pick(shortStrings, using: &rng))))
    }

    static func date(using rng: inout some RandomNumberGenerator) -> FilterExpression {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return expression(.field("t"))
        case 1:
            let day = CalendarDate(daysSinceEpoch: Int64.random(in: -2...18_300, using: &rng)) ?? dateOfEpoch
            return expression(.literal(.date(day)))
        default:
            let instant = CalendarTimestamp(millisecondsSinceEpoch: pick(dates, using: &rng)) ?? timestampOfEpoch
            return expression(.literal(.timestamp(instant)))
        }
    }

    /// A record of ``typedFields``, NULL a fifth of the time.
    static func typedRecord(using rng: inout some RandomNumberGenerator) -> [AttributeValue] {
        func maybe(_ value: AttributeValue, _ rng: inout some RandomNumberGenerator) -> AttributeValue {
            Int.random(in: 0..<5, using: &rng) == 0 ? .null : value
        }
        return [
            maybe(.integer(Int64.random(in: -5...5, using: &rng)), &rng),
            maybe(.double(pick([-2.5, 0, 0.5, 3.0, 1e9], using: &rng)), &rng),
            maybe(.string(pick(shortStrings, using: &rng)), &rng),
            maybe(.date(pick(dates, using: &rng)), &rng),
        ]
    }

    // MARK: - Generators

    static let anyConditions = Generator { rng in anyCondition(depth: 4, using: &rng) }
    static let typedConditions = Generator { rng in typedCondition(depth: 4, using: &rng) }
    static let typedRecords = Generator { rng in (0..<40).map { _ in typedRecord(using: &rng) } }
}

extension Literal {
    var isNumberLiteral: Bool {
        switch self {
        case .integer, .double: return true
        default: return false
        }
    }
}

extension FilterExpression {
    var isNumeric: Bool {
        switch node {
        case .field("i"), .field("d"), .arithmetic, .negate, .literal(.integer), .literal(.double): return true
        default: return false
        }
    }
}
