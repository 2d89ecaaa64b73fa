/// Options for writing a clause as CQL2.
package struct CQL2Options: Hashable, Sendable {
    /// The instant (milliseconds since 1970-01-01 UTC) written for `CURRENT_DATE` and `CURRENT_TIMESTAMP`,
    /// which CQL2 has no words for. When nil, clauses that use them can't be written as CQL2.
    package var currentTimeMilliseconds: Int64?

    /// Options; without a current time, clauses with CURRENT_DATE or CURRENT_TIMESTAMP can't be written.
    package init(currentTimeMilliseconds: Int64? = nil) {
        self.currentTimeMilliseconds = currentTimeMilliseconds
    }
}

/// A clause rewritten into what CQL2 can say, shared by the text and JSON writers.
///
/// The rewrites keep the meaning: `UPPER(x) = 'ABC'` becomes `CASEI(x) = CASEI('ABC')` (only for `=`, `<>`,
/// `IN` and `LIKE` against ASCII text already in that case: equal for ASCII data), `-x` becomes `-1 * x`,
/// `BETWEEN` on anything but number literals becomes `>= AND <=`, a `LIKE ... ESCAPE 'c'` pattern is
/// rewritten to CQL2's `\`, and `5 < x` becomes `x > 5` (Basic CQL2 wants the property on the left).
/// What CQL2 can't say (`SUBSTRING`, `TRIM`, `CHAR_LENGTH`, `ABS`, `ROUND`, `CAST`, `UPPER` elsewhere)
/// throws ``QueryLanguageError/Code/unsupportedInTarget``: the caller then asks the server without the
/// filter and filters the records itself with ``WhereClause/compile(fieldNames:context:)``.
indirect enum CQL2Node: Hashable, Sendable {
    case property(String)
    case literal(Literal)
    case caseInsensitive(CQL2Node)
    case arithmetic(ArithmeticOperator, CQL2Node, CQL2Node)
    case comparison(ComparisonOperator, CQL2Node, CQL2Node)
    case and([CQL2Node])
    case or([CQL2Node])
    case not(CQL2Node)
    /// The pattern is a string literal, or CASEI of one, using `\` as the escape.
    case like(CQL2Node, pattern: CQL2Node, negated: Bool)
    case between(CQL2Node, low: CQL2Node, high: CQL2Node, negated: Bool)
    case inList(CQL2Node, [CQL2Node], negated: Bool)
    case isNull(CQL2Node, negated: Bool)

    var precedence: Int {
        switch self {
        case .or: return Precedence.or
        case .and: return Precedence.and
        case .not: return Precedence.not
        case .comparison, .like, .between, .inList, .isNull: return Precedence.predicate
        case .arithmetic(let op, _, _): return op.precedence
        case .literal(.integer(let value)) where value < 0: return Precedence.unary
        case .literal(.double(let value)) where value.sign == .minus: return Precedence.unary
        case .property, .literal, .caseInsensitive: return Precedence.primary
        }
    }

    /// A property, or CASEI of one: what Basic CQL2 accepts on the left of a predicate.
    var isPropertyLike: Bool {
        switch self {
        case .property: return true
        case .caseInsensitive(let inner): return inner.isPropertyLike
        default: return false
        }
    }

    /// A literal, or CASEI of one.
    var isLiteralLike: Bool {
        switch self {
        case .literal: return true
        case .caseInsensitive(let inner): return inner.isLiteralLike
        default: return false
        }
    }
}

/// Builds a ``CQL2Node`` from a clause.
struct CQL2Planner {
    let options: CQL2Options

    func condition(_ expression: FilterExpression) throws(QueryLanguageError) -> CQL2Node {
        switch expression.node {
        case .and(let terms):
            return .and(try terms.map { (term) throws(QueryLanguageError) in try condition(term) })
        case .or(let terms):
            return .or(try terms.map { (term) throws(QueryLanguageError) in try condition(term) })
        case .not(let inner):
            return .not(try condition(inner))
        case .comparison(let op, let left, let right):
            if op == .equal || op == .notEqual {
                var folded = try caseFolded(left, [right])
                if folded == nil { folded = try caseFolded(right, [left]) }
                if let folded {
                    return .comparison(op, folded.value, folded.others[0])
                }
            }
            let (l, r) = (try value(left), try value(right))
            if r.isPropertyLike && l.isLiteralLike { return .comparison(op.mirrored, r, l) }
            return .comparison(op, l, r)
        case .isNull(let inner, let negated):
            return .isNull(try value(inner), negated: negated)
        case .inList(let inner, let items, let negated):
            if let folded = try caseFolded(inner, items) {
                return .inList(folded.value, folded.others, negated: negated)
            }
            return .inList(
                try value(inner), try items.map { (item) throws(QueryLanguageError) in try value(item) }, negated: negated)
        case .between(let inner, let low, let high, let negated):
            let (v, l, h) = (try value(inner), try value(low), try value(high))
            if case .literal(let lowLiteral) = l, lowLiteral.isNumber, case .literal(let highLiteral) = h,
                highLiteral.isNumber
            {
                return .between(v, low: l, high: h, negated: negated)
            }
            let range = CQL2Node.and([.comparison(.greaterOrEqual, v, l), .comparison(.lessOrEqual, v, h)])
            return negated ? .not(range) : range
        case .like(let inner, let pattern, let escape, let negated):
            let converted = LikePatternSyntax.cql2Pattern(pattern, escape: escape)
            let patternLiteral = FilterExpression(.literal(.string(converted)))
            if let folded = try caseFolded(inner, [patternLiteral]) {
                return .like(folded.value, pattern: folded.others[0], negated: negated)
            }
            if case .function(.caseInsensitive(let argument)) = inner.node {
                // CASEI on one side only means nothing to a server that folds to lower case: fold both.
                return .like(
                    .caseInsensitive(try value(argument)), pattern: .caseInsensitive(.literal(.string(converted))),
                    negated: negated)
            }
            return .like(try value(inner), pattern: .literal(.string(converted)), negated: negated)
        case .field, .literal, .negate, .arithmetic, .function:
            throw QueryLanguageError(code: .notACondition, message: "a CQL2 filter must be a condition")
        }
    }

    func value(_ expression: FilterExpression) throws(QueryLanguageError) -> CQL2Node {
        switch expression.node {
        case .field(let name):
            return .property(name)
        case .literal(let literal):
            return .literal(literal)
        case .negate(let inner):
            return .arithmetic(.multiply, .literal(.integer(-1)), try value(inner))
        case .arithmetic(let op, let left, let right):
            return .arithmetic(op, try value(left), try value(right))
        case .function(.caseInsensitive(let inner)):
            return .caseInsensitive(try value(inner))
        case .function(.currentDate):
            return .literal(.date(try now().date))
        case .function(.currentTimestamp):
            return .literal(.timestamp(try now()))
        case .function(let function):
            throw unsupported("\(function.name)(...)", why: "CQL2 has no such function here")
        case .comparison, .and, .or, .not, .isNull, .inList, .between, .like:
            throw QueryLanguageError(code: .notACondition, message: "expected a value, found a condition")
        }
    }

    /// `UPPER(x)` / `LOWER(x)` against text already in that case, as CASEI on both sides; nil when the
    /// value is not such a call (plain translation applies). Throws when it is one but the others don't fit.
    private func caseFolded(
        _ value: FilterExpression, _ others: [FilterExpression]
    ) throws(QueryLanguageError) -> (value: CQL2Node, others: [CQL2Node])? {
        let (inner, isUpper): (FilterExpression, Bool)
        switch value.node {
        case .function(.upper(let x)): (inner, isUpper) = (x, true)
        case .function(.lower(let x)): (inner, isUpper) = (x, false)
        default: return nil
        }
        var folded: [CQL2Node] = []
        for other in others {
            switch other.node {
            case .literal(.string(let text)) where text.utf8.allSatisfy({ $0 < 0x80 })
                && text == (isUpper ? text.uppercased() : text.lowercased()):
                folded.append(.caseInsensitive(.literal(.string(text))))
            case .function(.upper(let x)) where isUpper:
                folded.append(.caseInsensitive(try self.value(x)))
            case .function(.lower(let x)) where !isUpper:
                folded.append(.caseInsensitive(try self.value(x)))
            default:
                let name = isUpper ? "UPPER" : "LOWER"
                let textCase = isUpper ? "upper" : "lower"
                throw unsupported(
                    "\(name)(...)", why: "CQL2 can only compare it, with CASEI, to ASCII text in \(textCase) case")
            }
        }
        return (.caseInsensitive(try self.value(inner)), folded)
    }

    private func now() throws(QueryLanguageError) -> CalendarTimestamp {
        guard let milliseconds = options.currentTimeMilliseconds,
            let timestamp = CalendarTimestamp(millisecondsSinceEpoch: milliseconds)
        else {
            throw unsupported("CURRENT_DATE and CURRENT_TIMESTAMP", why: "CQL2 has no words for the current time, and "
                + "no current time was given in CQL2Options")
        }
        return timestamp
    }

    func unsupported(_ construct: String, why: String) -> QueryLanguageError {
        QueryLanguageError(
            code: .unsupportedInTarget,
            message: "\(construct) can't be written as CQL2: \(why). Query without the filter and filter the "
                + "records on the client")
    }
}
