extension Parser {
    /// Literals, field names, function calls and parenthesized expressions.
    mutating func parsePrimary() throws(QueryLanguageError) -> FilterExpression {
        let start = token.start
        switch token.kind {
        case .integer:
            let text = tokenText
            try advance()
            if let value = Int64(text) { return FilterExpression(.literal(.integer(value)), sourceOffset: start) }
            return FilterExpression(.literal(.double(try finiteDouble(text, at: start))), sourceOffset: start)
        case .decimal:
            let text = tokenText
            try advance()
            return FilterExpression(.literal(.double(try finiteDouble(text, at: start))), sourceOffset: start)
        case .string:
            let value = token.value
            try advance()
            return FilterExpression(.literal(.string(value)), sourceOffset: start)
        case .identifier:
            let name = tokenText
            if try peek().kind == .symbol(.leftParen) { return try parseFunctionCall(name, at: start) }
            try advance()
            return FilterExpression(.field(name), sourceOffset: start)
        case .quotedIdentifier:
            let name = token.value
            try advance()
            return FilterExpression(.field(name), sourceOffset: start)
        case .keyword(.date):
            return try parseDateLiteral(isTimestamp: false)
        case .keyword(.timestamp):
            return try parseDateLiteral(isTimestamp: true)
        case .keyword(.currentDate) where dialect == .arcGISSQL,
            .keyword(.currentTimestamp) where dialect == .arcGISSQL:
            let function: ScalarFunction = token.kind == .keyword(.currentDate) ? .currentDate : .currentTimestamp
            try advance()
            if token.kind == .symbol(.leftParen), try peek().kind == .symbol(.rightParen) {
                try advance()
                try advance()
            }
            return FilterExpression(.function(function), sourceOffset: start)
        case .keyword(.cast) where dialect == .arcGISSQL:
            return try parseCast()
        case .keyword(.null):
            throw fail(.nullComparison, at: start) {
                "NULL at column \($0) is not a value to compare with; test for it with x IS NULL or x IS NOT NULL"
            }
        case .keyword(.true) where readsCQL2Extensions, .keyword(.false) where readsCQL2Extensions:
            // The evaluator has no Boolean values: booleans are the integers 1 and 0, as ArcGIS stores them.
            let value: Int64 = token.kind == .keyword(.true) ? 1 : 0
            try advance()
            return FilterExpression(.literal(.integer(value)), sourceOffset: start)
        case .keyword(.true), .keyword(.false):
            throw fail(.syntaxError, at: start) {
                "\(describe(token)) at column \($0): boolean literals are not supported; compare a field with a value"
            }
        case .keyword(.select), .keyword(.exists), .keyword(.union):
            throw forbiddenSubquery(at: start)
        case .symbol(.leftParen):
            try enterNesting(at: start)
            try advance()
            if token.kind == .keyword(.select) { throw forbiddenSubquery(at: token.start) }
            let inner = try parseOr()
            guard token.kind == .symbol(.rightParen) else {
                let open = SourceColumn.column(in: lexer.bytes, at: start)
                throw fail(.syntaxError, at: token.start) {
                    "expected ')' at column \($0) to close the '(' at column \(open), found \(describe(token))"
                }
            }
            try advance()
            leaveNesting()
            return inner
        case .end:
            throw fail(.syntaxError, at: start) { "the clause ends at column \($0) where a value is expected" }
        default:
            throw fail(.syntaxError, at: start) { "expected a value at column \($0), found \(describe(token))" }
        }
    }

    /// `DATE 'yyyy-mm-dd'` and `TIMESTAMP 'yyyy-mm-dd hh:mm:ss'` (SQL), `DATE('...')` and `TIMESTAMP('...')` (CQL2).
    private mutating func parseDateLiteral(isTimestamp: Bool) throws(QueryLanguageError) -> FilterExpression {
        let start = token.start
        let keyword = isTimestamp ? "TIMESTAMP" : "DATE"
        let form = isTimestamp ? "'yyyy-mm-dd hh:mm:ss'" : "'yyyy-mm-dd'"
        let example = dialect == .arcGISSQL ? "\(keyword) \(form)" : "\(keyword)(\(form))"
        try advance()
        let parenthesized = dialect == .cql2Text
        if parenthesized { try expect(.leftParen, "after \(keyword)") }
        guard token.kind == .string else {
            throw fail(.syntaxError, at: token.start) {
                "expected a quoted \(keyword.lowercased()) at column \($0), found \(describe(token)); write \(example)"
            }
        }
        let text = token.value
        let textOffset = token.start
        try advance()
        if parenthesized { try expect(.rightParen, "to close \(keyword)(") }
        let literal: Literal?
        if isTimestamp {
            literal = CalendarTimestamp(parsing: text).map { .timestamp($0) }
        } else {
            literal = CalendarDate(parsing: text).map { .date($0) }
        }
        guard let literal else {
            throw fail(.invalidDate, at: textOffset) {
                "'\(SourceColumn.excerpt(text))' at column \($0) is not a valid \(keyword.lowercased()); write \(example)"
            }
        }
        return FilterExpression(.literal(literal), sourceOffset: start)
    }

    private func finiteDouble(_ text: String, at offset: Int) throws(QueryLanguageError) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw fail(.invalidNumber, at: offset) {
                "the number '\(SourceColumn.excerpt(text))' at column \($0) is too large"
            }
        }
        return value
    }

    // MARK: - Checks and errors

    func requireValue(_ expression: FilterExpression, _ reason: @autoclosure () -> String) throws(QueryLanguageError) {
        guard expression.isCondition else { return }
        throw fail(.notACondition, at: expression.sourceOffset ?? token.start) {
            "expected a value at column \($0), found a condition: \(reason())"
        }
    }

    func requireCondition(_ expression: FilterExpression, _ reason: @autoclosure () -> String) throws(QueryLanguageError) {
        guard !expression.isCondition else { return }
        throw fail(.notACondition, at: expression.sourceOffset ?? token.start) {
            "expected a condition such as Field = 'value' at column \($0), found a value: \(reason())"
        }
    }

    func fail(_ code: QueryLanguageError.Code, at offset: Int, _ message: (Int) -> String) -> QueryLanguageError {
        lexer.fail(code, at: offset, message)
    }

    func tooDeep(at offset: Int) -> QueryLanguageError {
        fail(.nestingTooDeep, at: offset) {
            "the clause nests more than \(limits.maxDepth) levels deep at column \($0); simplify it"
        }
    }

    func forbiddenSubquery(at offset: Int) -> QueryLanguageError {
        fail(.forbiddenConstruct, at: offset) {
            "subqueries and statements are not allowed in a where clause (column \($0)); compare fields with values"
        }
    }

    func nullComparison(_ op: ComparisonOperator, at offset: Int) -> QueryLanguageError {
        let suggestion = op == .notEqual ? "IS NOT NULL" : "IS NULL"
        return fail(.nullComparison, at: offset) {
            "a comparison with NULL (column \($0)) is never true; write x \(suggestion) instead"
        }
    }

    func likeNeedsPattern(at offset: Int) -> QueryLanguageError {
        fail(.invalidPattern, at: offset) {
            "LIKE needs a quoted pattern at column \($0), such as 'Res%' (% matches any text, _ one character)"
        }
    }

    /// How a token reads in a message.
    func describe(_ token: Token) -> String {
        let text = String(decoding: lexer.bytes[token.start..<token.end], as: UTF8.self)
        switch token.kind {
        case .end: return "the end of the clause"
        case .identifier: return "'\(SourceColumn.excerpt(text))'"
        case .quotedIdentifier: return "the field name \(SourceColumn.excerpt(text))"
        case .keyword(let keyword): return keyword.rawValue
        case .integer, .decimal: return "the number \(SourceColumn.excerpt(text))"
        case .string: return "the string \(SourceColumn.excerpt(text))"
        case .symbol(let symbol): return "'\(symbol.text)'"
        }
    }
}
