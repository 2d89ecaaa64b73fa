extension Parser {
    /// A call of one of the subset's functions; any other name is refused here, before anything runs.
    mutating func parseFunctionCall(_ name: String, at start: Int) throws(QueryLanguageError) -> FilterExpression {
        let upper = name.uppercased()
        if readsCQL2Extensions, let relation = CQL2SpatialRelation(name: upper) {
            return try parseSpatialPredicate(relation, at: start)
        }
        let function: ScalarFunction
        switch (dialect, upper) {
        case (.arcGISSQL, "UPPER"): function = .upper(try parseSingleArgument(of: upper))
        case (.arcGISSQL, "LOWER"): function = .lower(try parseSingleArgument(of: upper))
        case (.arcGISSQL, "CHAR_LENGTH"), (.arcGISSQL, "CHARACTER_LENGTH"):
            function = .charLength(try parseSingleArgument(of: upper))
        case (.arcGISSQL, "ABS"): function = .abs(try parseSingleArgument(of: upper))
        case (.arcGISSQL, "ROUND"): function = try parseRound()
        case (.arcGISSQL, "SUBSTRING"): function = try parseSubstring()
        case (.arcGISSQL, "TRIM"): function = try parseTrim()
        case (.cql2Text, "CASEI"): function = .caseInsensitive(try parseSingleArgument(of: upper))
        default:
            let spatial = readsCQL2Extensions ? CQL2SpatialRelation.allCases.map { ", \($0.textName)" }.joined() : ""
            let allowed = dialect == .arcGISSQL ? ScalarFunction.sqlNames.joined(separator: ", ") : "CASEI" + spatial
            throw fail(.unknownFunction, at: start) {
                "unknown function '\(SourceColumn.excerpt(name))' at column \($0); the functions you can use are \(allowed)"
            }
        }
        return try make(.function(function), at: start)
    }

    /// `CAST(x AS type)`.
    mutating func parseCast() throws(QueryLanguageError) -> FilterExpression {
        let start = token.start
        try openCall()
        let value = try parseArgument(of: "CAST")
        guard token.kind == .keyword(.as) else {
            throw fail(.syntaxError, at: token.start) {
                "expected AS at column \($0), found \(describe(token)); write CAST(x AS INTEGER)"
            }
        }
        try advance()
        let target = try parseCastTarget()
        try closeCall(of: "CAST")
        return try make(.function(.cast(value, to: target)), at: start)
    }

    // MARK: - Argument shapes

    private mutating func parseSingleArgument(of name: String) throws(QueryLanguageError) -> FilterExpression {
        try openCall()
        let argument = try parseArgument(of: name)
        if token.kind == .symbol(.comma) {
            throw fail(.invalidArgument, at: token.start) { "\(name) takes one argument (column \($0))" }
        }
        try closeCall(of: name)
        return argument
    }

    private mutating func parseRound() throws(QueryLanguageError) -> ScalarFunction {
        try openCall()
        let value = try parseArgument(of: "ROUND")
        var digits: Int? = nil
        if token.kind == .symbol(.comma) {
            try advance()
            let argument = try parseAdditive()
            guard case .literal(.integer(let count)) = argument.node, (-18...18).contains(count) else {
                throw fail(.invalidArgument, at: argument.sourceOffset ?? token.start) {
                    "ROUND's second argument (column \($0)) must be a whole number from -18 to 18"
                }
            }
            digits = Int(count)
        }
        try closeCall(of: "ROUND")
        return .round(value, digits: digits)
    }

    /// `SUBSTRING(x FROM start [FOR length])`, or the comma form `SUBSTRING(x, start[, length])`.
    private mutating func parseSubstring() throws(QueryLanguageError) -> ScalarFunction {
        try openCall()
        let value = try parseArgument(of: "SUBSTRING")
        let usesKeywords = token.kind == .keyword(.from)
        guard usesKeywords || token.kind == .symbol(.comma) else {
            throw fail(.invalidArgument, at: token.start) {
                "SUBSTRING needs a start position at column \($0): write SUBSTRING(x FROM 1 FOR 3)"
            }
        }
        try advance()
        let start = try parseArgument(of: "SUBSTRING")
        var length: FilterExpression? = nil
        if token.kind == (usesKeywords ? .keyword(.for) : .symbol(.comma)) {
            try advance()
            length = try parseArgument(of: "SUBSTRING")
        }
        try closeCall(of: "SUBSTRING")
        return .substring(value, start: start, length: length)
    }

    /// `TRIM(x)`, `TRIM([BOTH|LEADING|TRAILING] [char] FROM x)`.
    private mutating func parseTrim() throws(QueryLanguageError) -> ScalarFunction {
        try openCall()
        var edge = TrimEdge.both
        var character: Unicode.Scalar? = nil
        var hasSpecification = false
        if token.kind == .identifier, let named = TrimEdge(rawValue: tokenText.uppercased()) {
            let next = try peek().kind
            if next == .keyword(.from) || next == .string {
                edge = named
                hasSpecification = true
                try advance()
            }
        }
        if token.kind == .string, try peek().kind == .keyword(.from) {
            let scalars = token.value.unicodeScalars
            guard scalars.count == 1, let only = scalars.first else {
                throw fail(.invalidArgument, at: token.start) {
                    "TRIM removes one character (column \($0)); write TRIM(BOTH ' ' FROM x)"
                }
            }
            character = only
            hasSpecification = true
            try advance()
        }
        if token.kind == .keyword(.from) {
            try advance()
        } else if hasSpecification {
            throw fail(.syntaxError, at: token.start) {
                "expected FROM at column \($0), found \(describe(token)); write TRIM(LEADING '0' FROM x)"
            }
        }
        let value = try parseArgument(of: "TRIM")
        try closeCall(of: "TRIM")
        return .trim(value, edge: edge, character: character)
    }

    private mutating func parseCastTarget() throws(QueryLanguageError) -> CastTarget {
        let offset = token.start
        switch token.kind {
        case .keyword(.date):
            try advance()
            return .date
        case .keyword(.timestamp):
            try advance()
            return .timestamp
        case .identifier:
            let word = tokenText.uppercased()
            try advance()
            switch word {
            case "INT", "INTEGER": return .integer
            case "SMALLINT": return .smallInteger
            case "FLOAT": return .float
            case "REAL": return .real
            case "DOUBLE":
                if token.kind == .identifier, tokenText.uppercased() == "PRECISION" { try advance() }
                return .float
            case "VARCHAR": return .varchar(length: try parseTypeLength())
            case "CHAR", "CHARACTER": return .char(length: try parseTypeLength())
            default: break
            }
        default:
            break
        }
        throw fail(.invalidArgument, at: offset) {
            "expected a type at column \($0): INTEGER, SMALLINT, FLOAT, REAL, VARCHAR(n), CHAR(n), DATE or TIMESTAMP"
        }
    }

    private mutating func parseTypeLength() throws(QueryLanguageError) -> Int? {
        guard token.kind == .symbol(.leftParen) else { return nil }
        try advance()
        guard token.kind == .integer, let length = Int(tokenText), (1...65_535).contains(length) else {
            throw fail(.invalidArgument, at: token.start) {
                "expected a length from 1 to 65535 at column \($0), found \(describe(token))"
            }
        }
        try advance()
        try expect(.rightParen, "after the length")
        return length
    }

    // MARK: - Calls

    /// Moves past the function name and its `(`, counting the nesting.
    mutating func openCall() throws(QueryLanguageError) {
        try advance()
        guard token.kind == .symbol(.leftParen) else {
            throw fail(.syntaxError, at: token.start) { "expected '(' at column \($0), found \(describe(token))" }
        }
        try enterNesting(at: token.start)
        try advance()
    }

    mutating func closeCall(of name: String) throws(QueryLanguageError) {
        try expect(.rightParen, "to close \(name)(")
        leaveNesting()
    }

    private mutating func parseArgument(of name: String) throws(QueryLanguageError) -> FilterExpression {
        let argument = try parseAdditive()
        try requireValue(argument, "\(name) takes values")
        return argument
    }
}
