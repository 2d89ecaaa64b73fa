extension WhereClause {
    /// The same clause with field names spelt as `spelling` says (names it returns nil for stay as they are).
    ///
    /// ArcGIS compares field names without regard to case; OGC API servers do not (`ST` and `st` are different
    /// properties). An engine that sends a clause to such a server first spells each field as the server
    /// declares it, so that a clause written `st = 'CA'` still goes to the server rather than being filtered
    /// in the worker.
    package func renamingFields(_ spelling: (String) -> String?) -> WhereClause {
        WhereClause(checkedExpression: expression.renamingFields(spelling), sourceText: nil)
    }
}

extension FilterExpression {
    /// The expression with every field renamed by `spelling` (nil keeps the name); the tree's shape is kept,
    /// so its depth, already within the parse limit, does not change.
    func renamingFields(_ spelling: (String) -> String?) -> FilterExpression {
        func walk(_ expression: FilterExpression) -> FilterExpression {
            switch expression.node {
            case .field(let name):
                return expression.replacing(.field(spelling(name) ?? name))
            case .literal:
                return expression
            case .negate(let operand):
                return expression.replacing(.negate(walk(operand)))
            case .arithmetic(let op, let left, let right):
                return expression.replacing(.arithmetic(op, walk(left), walk(right)))
            case .function(let function):
                return expression.replacing(.function(function.mappingArguments(walk)))
            case .comparison(let op, let left, let right):
                return expression.replacing(.comparison(op, walk(left), walk(right)))
            case .and(let terms):
                return expression.replacing(.and(terms.map(walk)))
            case .or(let terms):
                return expression.replacing(.or(terms.map(walk)))
            case .not(let operand):
                return expression.replacing(.not(walk(operand)))
            case .isNull(let operand, let negated):
                return expression.replacing(.isNull(walk(operand), negated: negated))
            case .inList(let value, let items, let negated):
                return expression.replacing(.inList(walk(value), items.map(walk), negated: negated))
            case .between(let value, let low, let high, let negated):
                return expression.replacing(.between(walk(value), low: walk(low), high: walk(high), negated: negated))
            case .like(let operand, let pattern, let escape, let negated):
                return expression.replacing(.like(walk(operand), pattern: pattern, escape: escape, negated: negated))
            }
        }
        return walk(self)
    }
}

extension ScalarFunction {
    /// The function with `transform` applied to each argument.
    func mappingArguments(_ transform: (FilterExpression) -> FilterExpression) -> ScalarFunction {
        switch self {
        case .upper(let x): .upper(transform(x))
        case .lower(let x): .lower(transform(x))
        case .caseInsensitive(let x): .caseInsensitive(transform(x))
        case .charLength(let x): .charLength(transform(x))
        case .abs(let x): .abs(transform(x))
        case .round(let x, let digits): .round(transform(x), digits: digits)
        case .substring(let x, let start, let length): .substring(transform(x), start: transform(start), length: length.map(transform))
        case .trim(let x, let edge, let character): .trim(transform(x), edge: edge, character: character)
        case .cast(let x, let target): .cast(transform(x), to: target)
        case .currentDate: .currentDate
        case .currentTimestamp: .currentTimestamp
        }
    }
}
