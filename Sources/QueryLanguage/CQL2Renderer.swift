extension WhereClause {
    /// The clause as an OGC CQL2 text filter (`filter-lang=cql2-text`), for OGC API Features Part 3.
    ///
    /// Throws ``QueryLanguageError/Code/unsupportedInTarget`` for what CQL2 can't express (see ``CQL2Options``
    /// and the rewrites listed there); the caller then filters on the client with ``compile(fieldNames:context:)``.
    /// Send a filter only to a server whose conformance lists ``cql2ConformanceClasses(_:)``.
    package func cql2Text(_ options: CQL2Options = CQL2Options()) throws(QueryLanguageError) -> String {
        var output = ""
        try CQL2TextWriter.write(try CQL2Planner(options: options).condition(expression), into: &output)
        return output
    }

    /// The clause as a CQL2-JSON filter (`filter-lang=cql2-json`), as JSON text.
    package func cql2JSON(_ options: CQL2Options = CQL2Options()) throws(QueryLanguageError) -> String {
        try cql2JSONValue(options).serialized
    }

    /// The clause as a CQL2-JSON filter, as a structured value.
    package func cql2JSONValue(_ options: CQL2Options = CQL2Options()) throws(QueryLanguageError) -> JSONValue {
        CQL2JSONWriter.json(try CQL2Planner(options: options).condition(expression))
    }

    /// The CQL2 conformance classes (URIs) a server must declare for this filter: always Basic CQL2, and
    /// Advanced Comparison Operators, Case-insensitive Comparison, Arithmetic or Property-Property when the
    /// filter uses them. (Add `.../conf/cql2-text` or `.../conf/cql2-json` for the encoding.)
    package func cql2ConformanceClasses(_ options: CQL2Options = CQL2Options()) throws(QueryLanguageError) -> [String] {
        var classes: Set<String> = [CQL2Conformance.basic]
        CQL2Conformance.collect(try CQL2Planner(options: options).condition(expression), into: &classes)
        return classes.sorted()
    }
}

/// The conformance-class URIs of OGC 21-065 (CQL2).
package enum CQL2Conformance {
    static let prefix = "http://www.opengis.net/spec/cql2/1.0/conf/"
    /// Comparisons of a property with a literal, AND, OR, NOT, IS NULL.
    package static let basic = prefix + "basic-cql2"
    /// LIKE, BETWEEN and IN.
    package static let advancedComparison = prefix + "advanced-comparison-operators"
    /// CASEI.
    package static let caseInsensitive = prefix + "case-insensitive-comparison"
    /// `+ - * /`.
    package static let arithmetic = prefix + "arithmetic"
    /// Predicates with something other than a property on the left or a literal on the right.
    package static let propertyProperty = prefix + "property-property"
    /// The text encoding (`filter-lang=cql2-text`).
    package static let text = prefix + "cql2-text"
    /// The JSON encoding (`filter-lang=cql2-json`).
    package static let json = prefix + "cql2-json"

    static func collect(_ node: CQL2Node, into classes: inout Set<String>) {
        switch node {
        case .property, .literal:
            break
        case .caseInsensitive(let inner):
            classes.insert(caseInsensitive)
            collect(inner, into: &classes)
        case .arithmetic(_, let left, let right):
            classes.insert(arithmetic)
            collect(left, into: &classes)
            collect(right, into: &classes)
        case .comparison(_, let left, let right):
            if !(left.isPropertyLike && right.isLiteralLike) { classes.insert(propertyProperty) }
            collect(left, into: &classes)
            collect(right, into: &classes)
        case .and(let terms), .or(let terms):
            for term in terms { collect(term, into: &classes) }
        case .not(let inner), .isNull(let inner, _):
            collect(inner, into: &classes)
        case .like(let value, let pattern, _):
            classes.insert(advancedComparison)
            if !value.isPropertyLike { classes.insert(propertyProperty) }
            collect(value, into: &classes)
            collect(pattern, into: &classes)
        case .between(let value, let low, let high, _):
            classes.insert(advancedComparison)
            if !(value.isPropertyLike && low.isLiteralLike && high.isLiteralLike) { classes.insert(propertyProperty) }
            for part in [value, low, high] { collect(part, into: &classes) }
        case .inList(let value, let items, _):
            classes.insert(advancedComparison)
            if !(value.isPropertyLike && items.allSatisfy(\.isLiteralLike)) { classes.insert(propertyProperty) }
            collect(value, into: &classes)
            for item in items { collect(item, into: &classes) }
        }
    }
}

/// Writes CQL2 text. `NOT` always takes parentheses, which every CQL2 reader accepts.
enum CQL2TextWriter {
    static func write(_ node: CQL2Node, into output: inout String) throws(QueryLanguageError) {
        let operand = Precedence.additive
        switch node {
        case .property(let name):
            output += IdentifierSyntax.cql2(name)
        case .literal(let literal):
            output += try text(of: literal)
        case .caseInsensitive(let inner):
            output += "CASEI("
            try write(inner, into: &output)
            output += ")"
        case .arithmetic(let op, let left, let right):
            try write(left, atLeast: op.precedence, into: &output)
            output += " \(op.rawValue) "
            try write(right, atLeast: op.precedence + 1, into: &output)
        case .comparison(let op, let left, let right):
            try write(left, atLeast: operand, into: &output)
            output += " \(op.rawValue) "
            try write(right, atLeast: operand, into: &output)
        case .and(let terms):
            try writeJoined(terms, separator: " AND ", atLeast: Precedence.and + 1, into: &output)
        case .or(let terms):
            try writeJoined(terms, separator: " OR ", atLeast: Precedence.or + 1, into: &output)
        case .not(let inner):
            output += "NOT ("
            try write(inner, into: &output)
            output += ")"
        case .like(let value, let pattern, let negated):
            try write(value, atLeast: operand, into: &output)
            output += negated ? " NOT LIKE " : " LIKE "
            try write(pattern, into: &output)
        case .between(let value, let low, let high, let negated):
            try write(value, atLeast: operand, into: &output)
            output += negated ? " NOT BETWEEN " : " BETWEEN "
            try write(low, atLeast: operand, into: &output)
            output += " AND "
            try write(high, atLeast: operand, into: &output)
        case .inList(let value, let items, let negated):
            try write(value, atLeast: operand, into: &output)
            output += negated ? " NOT IN (" : " IN ("
            try writeJoined(items, separator: ", ", atLeast: operand, into: &output)
            output += ")"
        case .isNull(let value, let negated):
            try write(value, atLeast: operand, into: &output)
            output += negated ? " IS NOT NULL" : " IS NULL"
        }
    }

    private static func write(_ node: CQL2Node, atLeast minimum: Int, into output: inout String) throws(QueryLanguageError) {
        if node.precedence < minimum {
            output += "("
            try write(node, into: &output)
            output += ")"
        } else {
            try write(node, into: &output)
        }
    }

    private static func writeJoined(
        _ nodes: [CQL2Node], separator: String, atLeast minimum: Int, into output: inout String
    ) throws(QueryLanguageError) {
        for (index, node) in nodes.enumerated() {
            if index > 0 { output += separator }
            try write(node, atLeast: minimum, into: &output)
        }
    }

    private static func text(of literal: Literal) throws(QueryLanguageError) -> String {
        switch literal {
        case .integer(let value): return String(value)
        case .double(let value): return Literal.canonical(value)
        case .date(let date): return "DATE('\(date)')"
        case .timestamp(let timestamp): return "TIMESTAMP('\(timestamp.rfc3339)')"
        case .string(let value):
            // CQL2 text reads \' as an escaped quote, so a backslash before a quote or at the end is ambiguous.
            var previous: UInt8 = 0
            for byte in value.utf8 {
                if previous == 0x5C, byte == 0x27 { throw backslashProblem(value) }
                previous = byte
            }
            if previous == 0x5C { throw backslashProblem(value) }
            return StringLiteralSyntax.quoted(value)
        }
    }

    private static func backslashProblem(_ value: String) -> QueryLanguageError {
        QueryLanguageError(
            code: .unsupportedInTarget,
            message: "the text '\(SourceColumn.excerpt(value))' has a backslash before a quote or at its end, which "
                + "CQL2 text can't write unambiguously; send the filter as CQL2-JSON instead")
    }
}

/// Writes CQL2-JSON. Negated predicates become `{"op":"not","args":[...]}`, as CQL2-JSON has no `NOT LIKE`.
enum CQL2JSONWriter {
    static func json(_ node: CQL2Node) -> JSONValue {
        switch node {
        case .property(let name):
            return .object([.init("property", .string(name))])
        case .literal(let literal):
            switch literal {
            case .integer(let value): return .integer(value)
            case .double(let value): return .double(value)
            case .string(let value): return .string(value)
            case .date(let date): return .object([.init("date", .string(date.description))])
            case .timestamp(let timestamp): return .object([.init("timestamp", .string(timestamp.rfc3339))])
            }
        case .caseInsensitive(let inner):
            return operation("casei", [json(inner)])
        case .arithmetic(let op, let left, let right):
            return operation(op.rawValue, [json(left), json(right)])
        case .comparison(let op, let left, let right):
            return operation(op.rawValue, [json(left), json(right)])
        case .and(let terms):
            return operation("and", terms.map(json))
        case .or(let terms):
            return operation("or", terms.map(json))
        case .not(let inner):
            return operation("not", [json(inner)])
        case .like(let value, let pattern, let negated):
            return negatable(operation("like", [json(value), json(pattern)]), negated)
        case .between(let value, let low, let high, let negated):
            return negatable(operation("between", [json(value), json(low), json(high)]), negated)
        case .inList(let value, let items, let negated):
            return negatable(operation("in", [json(value), .array(items.map(json))]), negated)
        case .isNull(let value, let negated):
            return negatable(operation("isNull", [json(value)]), negated)
        }
    }

    private static func operation(_ name: String, _ arguments: [JSONValue]) -> JSONValue {
        .object([.init("op", .string(name)), .init("args", .array(arguments))])
    }

    private static func negatable(_ value: JSONValue, _ negated: Bool) -> JSONValue {
        negated ? operation("not", [value]) : value
    }
}
