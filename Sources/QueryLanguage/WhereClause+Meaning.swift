extension WhereClause {
    /// The clause reduced to what it means, for deciding whether two requests ask the same: field names in
    /// one letter case (layers look fields up case-insensitively, see ``LayerSchema/field(named:)``) and a
    /// whole number compared as an integer (`100000.0` → `100000`). `POP2000 > 100000` and
    /// `pop2000 > 100000.0` have one meaning key; the text sent to a service is not changed.
    ///
    /// Numbers are normalised only where they are compared with something (a comparison, `BETWEEN`, `IN`):
    /// inside arithmetic `x / 2` and `x / 2.0` may differ (integer division in some databases).
    package var meaningKey: FilterExpression { expression.meaningKey(compared: false) }

    /// Whether the two clauses select the same features on any layer by the rules of ``meaningKey``.
    package func meansSame(as other: WhereClause) -> Bool { meaningKey == other.meaningKey }
}

extension FilterExpression {
    /// See ``WhereClause/meaningKey``. `compared`: this expression is an operand of a comparison, `BETWEEN`
    /// or `IN`. Recursion is bounded by the clause's depth limit.
    func meaningKey(compared: Bool) -> FilterExpression {
        func key(_ expression: FilterExpression, compared: Bool = false) -> FilterExpression {
            expression.meaningKey(compared: compared)
        }
        switch node {
        case .field(let name):
            return replacing(.field(LayerSchema.fold(name)))
        case .literal(.double(let value)) where compared:
            guard value.rounded() == value, Swift.abs(value) <= 9_007_199_254_740_992 else { return self }
            return replacing(.literal(.integer(Int64(value))))
        case .literal:
            return self
        case .negate(let operand):
            return replacing(.negate(key(operand)))
        case .arithmetic(let op, let left, let right):
            return replacing(.arithmetic(op, key(left), key(right)))
        case .function(let function):
            return replacing(.function(function.meaningKey))
        case .comparison(let op, let left, let right):
            return replacing(.comparison(op, key(left, compared: true), key(right, compared: true)))
        case .and(let terms):
            return replacing(.and(terms.map { key($0) }))
        case .or(let terms):
            return replacing(.or(terms.map { key($0) }))
        case .not(let operand):
            return replacing(.not(key(operand)))
        case .isNull(let operand, let negated):
            return replacing(.isNull(key(operand), negated: negated))
        case .inList(let value, let items, let negated):
            return replacing(.inList(key(value, compared: true), items.map { key($0, compared: true) }, negated: negated))
        case .between(let value, let low, let high, let negated):
            return replacing(.between(
                key(value, compared: true), low: key(low, compared: true), high: key(high, compared: true), negated: negated))
        case .like(let operand, let pattern, let escape, let negated):
            return replacing(.like(key(operand), pattern: pattern, escape: escape, negated: negated))
        }
    }
}

extension ScalarFunction {
    /// The function with its arguments' field names folded (numbers inside functions are left as written).
    fileprivate var meaningKey: ScalarFunction {
        func key(_ expression: FilterExpression) -> FilterExpression { expression.meaningKey(compared: false) }
        switch self {
        case .upper(let x): return .upper(key(x))
        case .lower(let x): return .lower(key(x))
        case .caseInsensitive(let x): return .caseInsensitive(key(x))
        case .charLength(let x): return .charLength(key(x))
        case .abs(let x): return .abs(key(x))
        case .round(let x, let digits): return .round(key(x), digits: digits)
        case .substring(let x, let start, let length): return .substring(key(x), start: key(start), length: length.map(key))
        case .trim(let x, let edge, let character): return .trim(key(x), edge: edge, character: character)
        case .cast(let x, let target): return .cast(key(x), to: target)
        case .currentDate, .currentTimestamp: return self
        }
    }
}
