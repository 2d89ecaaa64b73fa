import FeatureQuerySupport

/// Reads a CQL2-JSON filter (`{"op":"and","args":[...]}`) into the module's syntax tree.
///
/// Builds the same ``FilterExpression`` the CQL2 text parser builds, so both encodings evaluate alike; spatial
/// predicates become ``CQL2SpatialMarker``s, as in text. Errors name where in the document they are, as a
/// path such as `filter.args[1]`. Recursion follows the document, whose nesting the JSON reader has already
/// bounded, and is counted against ``ClauseLimits/maxDepth`` besides.
struct CQL2JSONReader {
    let limits: ClauseLimits
    private(set) var spatialPredicates: [CQL2SpatialPredicate] = []
    /// Where each of ``spatialPredicates`` stands in the document, for the placement error.
    private(set) var spatialPaths: [String] = []

    init(limits: ClauseLimits) {
        self.limits = limits
    }

    /// JSON nesting: an expression level is two JSON levels (`{"args":[...]}`), and a multipolygon four more.
    static func readingLimits(_ limits: ClauseLimits) -> JSONReadingLimits {
        JSONReadingLimits(maxBytes: limits.maxClauseBytes, maxDepth: 2 * limits.maxDepth + 8)
    }

    static let comparisons: [String: ComparisonOperator] = [
        "=": .equal, "<>": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
    ]
    static let arithmetic: [String: ArithmeticOperator] = ["+": .add, "-": .subtract, "*": .multiply, "/": .divide]

    // MARK: - Conditions

    mutating func condition(_ json: ParsedJSON, path: String, depth: Int) throws(QueryLanguageError) -> FilterExpression {
        try checkDepth(depth, path)
        guard let (op, args) = try operation(json, path) else {
            throw error(.notACondition, path, "is \(json.kindDescription), not a condition; write one such as "
                + #"{"op":"=","args":[{"property":"name"},"value"]}"#)
        }
        switch op {
        case "and", "or":
            guard !args.isEmpty else { throw error(.syntaxError, path, "'\(op)' needs at least one argument") }
            var terms: [FilterExpression] = []
            for (index, arg) in args.enumerated() {
                terms.append(try condition(arg, path: "\(path).args[\(index)]", depth: depth + 1))
            }
            if terms.count == 1 { return terms[0] }
            return try make(op == "and" ? .and(terms) : .or(terms), path)
        case "not":
            try arity(args, 1, op, path)
            return try make(Self.negated(try condition(args[0], path: "\(path).args[0]", depth: depth + 1)), path)
        case "isnull":
            try arity(args, 1, op, path)
            return try make(.isNull(try value(args[0], path: "\(path).args[0]", depth: depth + 1), negated: false), path)
        case "like":
            try arity(args, 2, op, path)
            let operand = try value(args[0], path: "\(path).args[0]", depth: depth + 1)
            return try like(operand, pattern: args[1], path: "\(path).args[1]")
        case "between":
            try arity(args, 3, op, path)
            let parts = try values(args, path, depth)
            return try make(.between(parts[0], low: parts[1], high: parts[2], negated: false), path)
        case "in":
            try arity(args, 2, op, path)
            guard case .array(let items) = args[1] else {
                throw error(.syntaxError, "\(path).args[1]", "must be an array of values, such as [1, 2, 3]")
            }
            guard !items.isEmpty else { throw error(.syntaxError, "\(path).args[1]", "is an empty list; give a value") }
            guard items.count <= limits.maxListItems else {
                throw error(.listTooLong, "\(path).args[1]", "has more than \(limits.maxListItems) values; split the query")
            }
            let operand = try value(args[0], path: "\(path).args[0]", depth: depth + 1)
            let list = try values(items, "\(path).args[1]", depth)
            return try make(.inList(operand, list, negated: false), path)
        default:
            if let comparison = Self.comparisons[op] {
                try arity(args, 2, op, path)
                let parts = try values(args, path, depth)
                return try make(.comparison(comparison, parts[0], parts[1]), path)
            }
            if let relation = CQL2SpatialRelation(name: op) {
                try arity(args, 2, op, path)
                spatialPredicates.append(try spatialPredicate(relation, args, path))
                spatialPaths.append(path)
                return try make(CQL2SpatialMarker.node(spatialPredicates.count - 1), path)
            }
            if op == "casei" || Self.arithmetic[op] != nil {
                throw error(.notACondition, path, "is a value ('\(op)'), not a condition; compare it with something")
            }
            throw unknownOperator(op, path)
        }
    }

    /// `not` of a predicate that has a negated form is that form: CQL2-JSON has no `NOT LIKE`, so writers
    /// (``CQL2JSONWriter``) send `{"op":"not","args":[{"op":"like",...}]}`, and reading it back as `NOT LIKE`
    /// gives the tree the text parser gives for the same filter.
    static func negated(_ inner: FilterExpression) -> FilterExpression.Node {
        switch inner.node {
        case .isNull(let value, negated: false): return .isNull(value, negated: true)
        case .like(let value, let pattern, let escape, negated: false):
            return .like(value, pattern: pattern, escape: escape, negated: true)
        case .between(let value, let low, let high, negated: false):
            return .between(value, low: low, high: high, negated: true)
        case .inList(let value, let items, negated: false): return .inList(value, items, negated: true)
        default: return .not(inner)
        }
    }

    // MARK: - Values

    mutating func value(_ json: ParsedJSON, path: String, depth: Int) throws(QueryLanguageError) -> FilterExpression {
        try checkDepth(depth, path)
        switch json {
        case .null:
            throw error(.nullComparison, path, "is null, which is never equal to anything; use {\"op\":\"isNull\",...}")
        case .bool(let flag):
            // The evaluator has no Booleans: they are the integers 1 and 0, as ArcGIS stores them.
            return FilterExpression(.literal(.integer(flag ? 1 : 0)))
        case .number(let number):
            return FilterExpression(.literal(Self.literal(number)))
        case .string(let text):
            return FilterExpression(.literal(.string(text)))
        case .array:
            throw error(.syntaxError, path, "is an array, which is only an argument of 'in' here")
        case .object(let members):
            if let property = members["property"] { return FilterExpression(.field(try propertyName(property, path))) }
            if let date = members["date"] { return FilterExpression(.literal(try temporal(date, isTimestamp: false, path))) }
            if let instant = members["timestamp"] {
                return FilterExpression(.literal(try temporal(instant, isTimestamp: true, path)))
            }
            if members["bbox"] != nil || members["type"] != nil {
                throw error(.invalidArgument, path, "is a geometry, which is only an argument of a spatial function")
            }
            guard let (op, args) = try operation(json, path) else {
                throw error(.syntaxError, path, "is an object without 'op', 'property', 'date' or 'timestamp'")
            }
            if op == "casei" {
                try arity(args, 1, op, path)
                let inner = try value(args[0], path: "\(path).args[0]", depth: depth + 1)
                return try make(.function(.caseInsensitive(inner)), path)
            }
            if let arithmetic = Self.arithmetic[op] {
                try arity(args, 2, op, path)
                let parts = try values(args, path, depth)
                return try make(.arithmetic(arithmetic, parts[0], parts[1]), path)
            }
            if Self.comparisons[op] != nil || ["and", "or", "not", "like", "between", "in", "isnull"].contains(op)
                || CQL2SpatialRelation(name: op) != nil
            {
                throw error(.notACondition, path, "is a condition ('\(op)') where a value is expected")
            }
            throw unknownOperator(op, path)
        }
    }

    private mutating func values(
        _ args: [ParsedJSON], _ path: String, _ depth: Int
    ) throws(QueryLanguageError) -> [FilterExpression] {
        var result: [FilterExpression] = []
        result.reserveCapacity(args.count)
        for (index, arg) in args.enumerated() {
            result.append(try value(arg, path: "\(path).args[\(index)]", depth: depth + 1))
        }
        return result
    }

    /// A JSON number as the text parser would read it: integral values within 2^53 as integers, others as
    /// doubles. (JSON numbers arrive as Doubles, so integers past 2^53 have already lost precision.)
    static func literal(_ number: Double) -> Literal {
        if number.rounded() == number, abs(number) < 9_007_199_254_740_992 { return .integer(Int64(number)) }
        return .double(number)
    }

    func propertyName(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> String {
        guard case .string(let name) = json, !name.isEmpty, !name.unicodeScalars.contains("\u{0}") else {
            throw error(.syntaxError, "\(path).property", "must be a non-empty property name")
        }
        guard name.utf8.count <= limits.maxIdentifierBytes else {
            throw error(.identifierTooLong, "\(path).property", "is longer than \(limits.maxIdentifierBytes) bytes")
        }
        return name
    }

    private func temporal(_ json: ParsedJSON, isTimestamp: Bool, _ path: String) throws(QueryLanguageError) -> Literal {
        let example = isTimestamp ? #"{"timestamp":"2020-01-01T00:00:00Z"}"# : #"{"date":"2020-01-01"}"#
        if case .string(let text) = json {
            if isTimestamp, let instant = CalendarTimestamp(parsing: text) { return .timestamp(instant) }
            if !isTimestamp, let date = CalendarDate(parsing: text) { return .date(date) }
        }
        throw error(.invalidDate, path, "is not a valid \(isTimestamp ? "timestamp" : "date"); write \(example)")
    }

    private func like(
        _ operand: FilterExpression, pattern json: ParsedJSON, path: String
    ) throws(QueryLanguageError) -> FilterExpression {
        var pattern: String
        switch json {
        case .string(let text):
            pattern = text
        default:
            guard let (op, args) = try operation(json, path), op == "casei", args.count == 1,
                case .string(let text) = args[0]
            else {
                throw error(.invalidPattern, path, "must be a pattern string such as \"Res%\" (% any text, _ one "
                    + "character), or CASEI of one")
            }
            // CASEI evaluates as UPPER, and upper-casing leaves %, _ and \ alone (as in the text parser).
            pattern = text.uppercased()
        }
        let normalized = LikePatternSyntax.normalizeCQL2(pattern)
        if let problem = normalized.problem { throw error(.invalidPattern, path, problem) }
        pattern = normalized.pattern
        let escape: Unicode.Scalar? = pattern.utf8.contains(0x5C) ? "\\" : nil
        if LikePatternSyntax.matchedLength(pattern, escape: escape) > limits.maxPatternBytes {
            throw error(.invalidPattern, path, "is longer than \(limits.maxPatternBytes) bytes; shorten it")
        }
        return try make(.like(operand, pattern: pattern, escape: escape, negated: false), path)
    }

    // MARK: - Shapes and errors

    /// The lower-cased `op` and the `args` of an operation object; nil when `json` has no `op`.
    func operation(_ json: ParsedJSON, _ path: String) throws(QueryLanguageError) -> (String, [ParsedJSON])? {
        guard case .object(let members) = json, let opValue = members["op"] else { return nil }
        guard case .string(let op) = opValue else { throw error(.syntaxError, "\(path).op", "must be a string") }
        guard case .array(let args) = members["args"] else {
            throw error(.syntaxError, "\(path).args", "must be an array of the arguments of '\(op)'")
        }
        return (op.lowercased(), args)
    }

    func arity(_ args: [ParsedJSON], _ count: Int, _ op: String, _ path: String) throws(QueryLanguageError) {
        guard args.count != count else { return }
        throw error(.invalidArgument, "\(path).args", "has \(args.count) arguments; '\(op)' takes \(count)")
    }

    private func checkDepth(_ depth: Int, _ path: String) throws(QueryLanguageError) {
        guard depth > limits.maxDepth else { return }
        throw error(.nestingTooDeep, path, "nests more than \(limits.maxDepth) levels deep; simplify the filter")
    }

    private func make(_ node: FilterExpression.Node, _ path: String) throws(QueryLanguageError) -> FilterExpression {
        let expression = FilterExpression(node)
        guard expression.depth <= limits.maxDepth else {
            throw error(.nestingTooDeep, path, "nests more than \(limits.maxDepth) levels deep; simplify the filter")
        }
        return expression
    }

    private func unknownOperator(_ op: String, _ path: String) -> QueryLanguageError {
        error(.unknownFunction, "\(path).op", "'\(SourceColumn.excerpt(op))' is not an operator this server reads; "
            + "use and, or, not, =, <>, <, <=, >, >=, like, between, in, isNull, casei, +, -, *, / or s_intersects "
            + "and the other s_ functions")
    }

    func error(_ code: QueryLanguageError.Code, _ path: String, _ problem: String) -> QueryLanguageError {
        QueryLanguageError(code: code, message: "\(path) \(problem)")
    }
}
