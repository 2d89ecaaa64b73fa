/// Recursive-descent parser for the where-clause grammar, shared by ArcGIS SQL and CQL2 text.
///
/// Precedence, lowest first: `OR`, `AND`, `NOT`, predicates (comparisons, `IN`, `BETWEEN`, `LIKE`,
/// `IS NULL`), `+ -`, `* /`, unary minus, primaries. Chains (`a OR b OR c`, `NOT NOT x`, `- - x`) are read
/// in loops, not by recursion; recursion happens only at parentheses, `IN` lists and function calls, and is
/// counted against ``ClauseLimits/maxDepth``, as is the height of the tree built. So no input can exhaust
/// the stack, and every later walk over the tree is bounded too.
struct Parser {
    private(set) var lexer: Lexer
    private(set) var token: Token
    private var peeked: Token?
    let limits: ClauseLimits
    let dialect: Dialect
    private var nesting = 0
    /// Whether the CQL2 filter extensions are read: spatial predicates and `TRUE`/`FALSE` (``CQL2Filter``).
    /// Off for ``WhereClause/init(cql2Text:limits:)``, which has no place to put a spatial predicate.
    var readsCQL2Extensions = false
    /// The spatial predicates read so far; each stands in the tree as ``CQL2SpatialMarker`` with its index.
    var spatialPredicates: [CQL2SpatialPredicate] = []

    init(bytes: [UInt8], dialect: Dialect, limits: ClauseLimits) throws(QueryLanguageError) {
        self.lexer = Lexer(bytes: bytes, dialect: dialect, limits: limits)
        self.limits = limits
        self.dialect = dialect
        self.token = Token(kind: .end, start: 0, end: 0)
        self.token = try lexer.next()
    }

    /// Parses a whole clause: one condition and nothing after it.
    static func parse(
        _ bytes: [UInt8], dialect: Dialect, limits: ClauseLimits
    ) throws(QueryLanguageError) -> FilterExpression {
        var parser = try Parser(bytes: bytes, dialect: dialect, limits: limits)
        return try parser.parseClause()
    }

    mutating func parseClause() throws(QueryLanguageError) -> FilterExpression {
        if token.kind == .end {
            throw QueryLanguageError(
                code: .emptyClause,
                message: "the where clause is empty; write a condition such as UseType = 'Residential'")
        }
        let clause = try parseOr()
        if token.kind != .end {
            if case .keyword(let keyword) = token.kind, keyword == .union || keyword == .select {
                throw forbiddenSubquery(at: token.start)
            }
            throw fail(.syntaxError, at: token.start) {
                "unexpected \(describe(token)) at column \($0); expected AND, OR or the end of the clause"
            }
        }
        try requireCondition(clause, "a where clause is a condition, such as UseType = 'Residential'")
        return clause
    }

    // MARK: - Conditions

    mutating func parseOr() throws(QueryLanguageError) -> FilterExpression {
        let first = try parseAnd()
        guard token.kind == .keyword(.or) else { return first }
        var terms = [first]
        while token.kind == .keyword(.or) {
            try advance()
            terms.append(try parseAnd())
        }
        for term in terms { try requireCondition(term, "OR joins conditions") }
        return try make(.or(terms), at: first.sourceOffset)
    }

    private mutating func parseAnd() throws(QueryLanguageError) -> FilterExpression {
        let first = try parseNot()
        guard token.kind == .keyword(.and) else { return first }
        var terms = [first]
        while token.kind == .keyword(.and) {
            try advance()
            terms.append(try parseNot())
        }
        for term in terms { try requireCondition(term, "AND joins conditions") }
        return try make(.and(terms), at: first.sourceOffset)
    }

    private mutating func parseNot() throws(QueryLanguageError) -> FilterExpression {
        var notOffsets: [Int] = []
        while token.kind == .keyword(.not) {
            notOffsets.append(token.start)
            try advance()
        }
        var expression = try parsePredicate()
        for offset in notOffsets.reversed() {
            try requireCondition(expression, "NOT applies to a condition")
            expression = try make(.not(expression), at: offset)
        }
        return expression
    }

    private mutating func parsePredicate() throws(QueryLanguageError) -> FilterExpression {
        let left = try parseAdditive()
        let start = left.sourceOffset
        if case .symbol(let symbol) = token.kind, let op = symbol.comparison {
            try advance()
            if token.kind == .keyword(.null) { throw nullComparison(op, at: token.start) }
            let right = try parseAdditive()
            try requireValue(left, "\(op.rawValue) compares two values")
            try requireValue(right, "\(op.rawValue) compares two values")
            let comparison = try make(.comparison(op, left, right), at: start)
            if case .symbol(let next) = token.kind, next.comparison != nil {
                throw fail(.syntaxError, at: token.start) {
                    "comparisons can't be chained (column \($0)); join two comparisons with AND"
                }
            }
            return comparison
        }
        var negated = false
        if token.kind == .keyword(.not) {
            switch try peek().kind {
            case .keyword(.in), .keyword(.between), .keyword(.like):
                negated = true
                try advance()
            default:
                throw fail(.syntaxError, at: token.start) {
                    "unexpected NOT at column \($0); after a value NOT must be followed by IN, BETWEEN or LIKE"
                }
            }
        }
        switch token.kind {
        case .keyword(.in):
            try requireValue(left, "IN tests a value")
            return try parseInList(left, negated: negated)
        case .keyword(.between):
            try requireValue(left, "BETWEEN tests a value")
            try advance()
            let low = try parseAdditive()
            guard token.kind == .keyword(.and) else {
                throw fail(.syntaxError, at: token.start) {
                    "expected AND at column \($0), found \(describe(token)); write x BETWEEN low AND high"
                }
            }
            try advance()
            let high = try parseAdditive()
            try requireValue(low, "BETWEEN's bounds are values")
            try requireValue(high, "BETWEEN's bounds are values")
            return try make(.between(left, low: low, high: high, negated: negated), at: start)
        case .keyword(.like):
            try requireValue(left, "LIKE tests a value")
            return try parseLike(left, negated: negated)
        case .keyword(.is):
            try requireValue(left, "IS NULL tests a value")
            try advance()
            var isNot = false
            if token.kind == .keyword(.not) {
                isNot = true
                try advance()
            }
            guard token.kind == .keyword(.null) else {
                throw fail(.syntaxError, at: token.start) {
                    "expected NULL at column \($0), found \(describe(token)); write x IS NULL or x IS NOT NULL"
                }
            }
            try advance()
            return try make(.isNull(left, negated: isNot), at: start)
        default:
            return left
        }
    }

    // MARK: - Arithmetic

    mutating func parseAdditive() throws(QueryLanguageError) -> FilterExpression {
        var left = try parseMultiplicative()
        while case .symbol(let symbol) = token.kind, symbol == .plus || symbol == .minus {
            try advance()
            let right = try parseMultiplicative()
            try requireValue(left, "arithmetic works on values")
            try requireValue(right, "arithmetic works on values")
            left = try make(.arithmetic(symbol == .plus ? .add : .subtract, left, right), at: left.sourceOffset)
        }
        return left
    }

    private mutating func parseMultiplicative() throws(QueryLanguageError) -> FilterExpression {
        var left = try parseUnary()
        while case .symbol(let symbol) = token.kind, symbol == .star || symbol == .slash {
            try advance()
            let right = try parseUnary()
            try requireValue(left, "arithmetic works on values")
            try requireValue(right, "arithmetic works on values")
            left = try make(.arithmetic(symbol == .star ? .multiply : .divide, left, right), at: left.sourceOffset)
        }
        return left
    }

    private mutating func parseUnary() throws(QueryLanguageError) -> FilterExpression {
        var minusOffsets: [Int] = []
        while case .symbol(let symbol) = token.kind, symbol == .minus || symbol == .plus {
            if symbol == .minus { minusOffsets.append(token.start) }
            try advance()
        }
        guard let innermost = minusOffsets.last else { return try parsePrimary() }
        var operand: FilterExpression
        if token.kind == .integer {
            // Read the sign with the digits, so that -9223372036854775808 stays a 64-bit integer.
            let digits = tokenText
            try advance()
            let literal: Literal = Int64("-" + digits).map { .integer($0) } ?? .double(-(Double(digits) ?? 0))
            operand = FilterExpression(.literal(literal), sourceOffset: innermost)
            minusOffsets.removeLast()
        } else {
            operand = try parsePrimary()
        }
        for offset in minusOffsets.reversed() {
            try requireValue(operand, "minus applies to a number")
            operand = try negated(operand, at: offset)
        }
        return operand
    }

    /// Unary minus; on a number literal it folds into the literal, so `-5` is the literal -5.
    private func negated(_ operand: FilterExpression, at offset: Int) throws(QueryLanguageError) -> FilterExpression {
        switch operand.node {
        case .literal(.integer(let value)):
            let literal: Literal = value == .min ? .double(-Double(value)) : .integer(-value)
            return FilterExpression(.literal(literal), sourceOffset: offset)
        case .literal(.double(let value)):
            return FilterExpression(.literal(.double(-value)), sourceOffset: offset)
        default:
            return try make(.negate(operand), at: offset)
        }
    }

    // MARK: - Tokens

    mutating func advance() throws(QueryLanguageError) {
        if let next = peeked {
            token = next
            peeked = nil
        } else {
            token = try lexer.next()
        }
    }

    mutating func peek() throws(QueryLanguageError) -> Token {
        if let next = peeked { return next }
        let next = try lexer.next()
        peeked = next
        return next
    }

    mutating func expect(_ symbol: Symbol, _ purpose: String) throws(QueryLanguageError) {
        guard token.kind == .symbol(symbol) else {
            throw fail(.syntaxError, at: token.start) {
                "expected '\(symbol.text)' \(purpose) at column \($0), found \(describe(token))"
            }
        }
        try advance()
    }

    /// The source text of the current token.
    var tokenText: String { String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self) }

    // MARK: - Tree building and limits

    /// Builds a node, refusing trees taller than the depth limit.
    func make(_ node: FilterExpression.Node, at offset: Int?) throws(QueryLanguageError) -> FilterExpression {
        let expression = FilterExpression(node, sourceOffset: offset)
        if expression.depth > limits.maxDepth { throw tooDeep(at: offset ?? token.start) }
        return expression
    }

    mutating func enterNesting(at offset: Int) throws(QueryLanguageError) {
        nesting += 1
        if nesting > limits.maxDepth { throw tooDeep(at: offset) }
    }

    mutating func leaveNesting() { nesting -= 1 }
}
