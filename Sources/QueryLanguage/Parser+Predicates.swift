extension Parser {
    /// `x [NOT] IN (a, b, ...)`; `IN (SELECT ...)` is refused as a subquery.
    mutating func parseInList(
        _ value: FilterExpression, negated: Bool
    ) throws(QueryLanguageError) -> FilterExpression {
        try advance()
        guard token.kind == .symbol(.leftParen) else {
            throw fail(.syntaxError, at: token.start) {
                "expected '(' at column \($0) after IN, found \(describe(token)); write x IN (1, 2, 3)"
            }
        }
        try enterNesting(at: token.start)
        try advance()
        if token.kind == .keyword(.select) { throw forbiddenSubquery(at: token.start) }
        if token.kind == .symbol(.rightParen) {
            throw fail(.syntaxError, at: token.start) { "the IN list at column \($0) is empty; give at least one value" }
        }
        var items: [FilterExpression] = []
        while true {
            let item = try parseAdditive()
            try requireValue(item, "an IN list holds values")
            items.append(item)
            if items.count > limits.maxListItems {
                throw fail(.listTooLong, at: token.start) {
                    "the IN list has more than \(limits.maxListItems) values (column \($0)); split the query"
                }
            }
            if token.kind == .symbol(.comma) {
                try advance()
                continue
            }
            guard token.kind == .symbol(.rightParen) else {
                throw fail(.syntaxError, at: token.start) {
                    "expected ',' or ')' in the IN list at column \($0), found \(describe(token))"
                }
            }
            try advance()
            break
        }
        leaveNesting()
        return try make(.inList(value, items, negated: negated), at: value.sourceOffset)
    }

    /// `x [NOT] LIKE 'pattern' [ESCAPE 'c']` (SQL) or `x [NOT] LIKE 'pattern'` with `\` escapes (CQL2).
    mutating func parseLike(
        _ value: FilterExpression, negated: Bool
    ) throws(QueryLanguageError) -> FilterExpression {
        try advance()
        let patternOffset = token.start
        var pattern: String
        if token.kind == .string {
            pattern = token.value
            try advance()
        } else if dialect == .cql2Text, token.kind == .identifier, tokenText.uppercased() == "CASEI",
            try peek().kind == .symbol(.leftParen)
        {
            try advance()
            try advance()
            guard token.kind == .string else { throw likeNeedsPattern(at: token.start) }
            // CASEI evaluates as UPPER, and upper-casing leaves %, _ and \ alone.
            pattern = token.value.uppercased()
            try advance()
            try expect(.rightParen, "to close CASEI(")
        } else {
            throw likeNeedsPattern(at: token.start)
        }
        var escape: Unicode.Scalar? = nil
        switch dialect {
        case .arcGISSQL:
            if token.kind == .keyword(.escape) {
                try advance()
                let scalars = token.value.unicodeScalars
                guard token.kind == .string, scalars.count == 1, let only = scalars.first else {
                    throw fail(.invalidPattern, at: token.start) {
                        "ESCAPE at column \($0) takes one character in quotes, such as ESCAPE '\\'"
                    }
                }
                escape = only
                try advance()
                if let problem = LikePatternSyntax.problem(in: pattern, escape: only) {
                    throw fail(.invalidPattern, at: patternOffset) { "the LIKE pattern at column \($0) \(problem)" }
                }
            }
        case .cql2Text:
            let normalized = LikePatternSyntax.normalizeCQL2(pattern)
            if let problem = normalized.problem {
                throw fail(.invalidPattern, at: patternOffset) { "the LIKE pattern at column \($0) \(problem)" }
            }
            pattern = normalized.pattern
            if pattern.utf8.contains(0x5C) { escape = "\\" }
        }
        // Measured as the matcher sees it, so the SQL and CQL2 spellings of one pattern measure the same.
        if LikePatternSyntax.matchedLength(pattern, escape: escape) > limits.maxPatternBytes {
            throw fail(.invalidPattern, at: patternOffset) {
                "the LIKE pattern at column \($0) is longer than \(limits.maxPatternBytes) bytes; shorten it"
            }
        }
        return try make(.like(value, pattern: pattern, escape: escape, negated: negated), at: value.sourceOffset)
    }
}
