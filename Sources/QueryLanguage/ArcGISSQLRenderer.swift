extension WhereClause {
    /// The clause in normalized ArcGIS SQL, as standardized queries accept it: keywords in upper case, field
    /// names as given (quoted only when they must be), strings in single quotes with `''`, numbers in
    /// canonical form, `DATE 'yyyy-mm-dd'` and `TIMESTAMP 'yyyy-mm-dd hh:mm:ss'`, and only the parentheses
    /// the structure needs. Reading the result back gives an equal clause.
    package var arcGISSQL: String { ArcGISSQLRenderer.render(expression) }
}

/// Writes a tree as ArcGIS SQL. Never produces `--`, `/*` or `;`.
enum ArcGISSQLRenderer {
    static func render(_ expression: FilterExpression) -> String {
        var output = ""
        output.reserveCapacity(64)
        write(expression, into: &output)
        return output
    }

    /// Writes `expression`, in parentheses when it binds more loosely than `minimum`.
    private static func write(_ expression: FilterExpression, atLeast minimum: Int, into output: inout String) {
        if expression.precedence < minimum {
            output += "("
            write(expression, into: &output)
            output += ")"
        } else {
            write(expression, into: &output)
        }
    }

    private static func write(_ expression: FilterExpression, into output: inout String) {
        let operand = Precedence.additive
        switch expression.node {
        case .field(let name):
            output += IdentifierSyntax.sql(name)
        case .literal(.string(let value)):
            QuoteDoubling.append(value, quote: 0x27, to: &output)
        case .literal(let literal):
            output += text(of: literal)
        case .negate(let value):
            output += "-"
            write(value, atLeast: Precedence.primary, into: &output)
        case .arithmetic(let op, let left, let right):
            write(left, atLeast: op.precedence, into: &output)
            output += " "
            output += op.rawValue
            output += " "
            write(right, atLeast: op.precedence + 1, into: &output)
        case .function(let function):
            write(function, into: &output)
        case .comparison(let op, let left, let right):
            write(left, atLeast: operand, into: &output)
            output += " "
            output += op.rawValue
            output += " "
            write(right, atLeast: operand, into: &output)
        case .and(let terms):
            writeJoined(terms, separator: " AND ", atLeast: Precedence.and + 1, into: &output)
        case .or(let terms):
            writeJoined(terms, separator: " OR ", atLeast: Precedence.or + 1, into: &output)
        case .not(let condition):
            output += "NOT "
            write(condition, atLeast: Precedence.not, into: &output)
        case .isNull(let value, let negated):
            write(value, atLeast: operand, into: &output)
            output += negated ? " IS NOT NULL" : " IS NULL"
        case .inList(let value, let items, let negated):
            write(value, atLeast: operand, into: &output)
            output += negated ? " NOT IN (" : " IN ("
            writeJoined(items, separator: ", ", atLeast: operand, into: &output)
            output += ")"
        case .between(let value, let low, let high, let negated):
            write(value, atLeast: operand, into: &output)
            output += negated ? " NOT BETWEEN " : " BETWEEN "
            write(low, atLeast: operand, into: &output)
            output += " AND "
            write(high, atLeast: operand, into: &output)
        case .like(let value, let pattern, let escape, let negated):
            write(value, atLeast: operand, into: &output)
            output += negated ? " NOT LIKE " : " LIKE "
            QuoteDoubling.append(pattern, quote: 0x27, to: &output)
            if let escape { output += " ESCAPE " + StringLiteralSyntax.quoted(String(escape)) }
        }
    }

    private static func writeJoined(
        _ items: [FilterExpression], separator: String, atLeast minimum: Int, into output: inout String
    ) {
        for (index, item) in items.enumerated() {
            if index > 0 { output += separator }
            write(item, atLeast: minimum, into: &output)
        }
    }

    private static func write(_ function: ScalarFunction, into output: inout String) {
        switch function {
        case .upper(let value), .lower(let value), .caseInsensitive(let value), .charLength(let value),
            .abs(let value):
            output += function.name + "("
            write(value, into: &output)
            output += ")"
        case .round(let value, let digits):
            output += "ROUND("
            write(value, into: &output)
            if let digits { output += ", \(digits)" }
            output += ")"
        case .substring(let value, let start, let length):
            output += "SUBSTRING("
            write(value, into: &output)
            output += " FROM "
            write(start, into: &output)
            if let length {
                output += " FOR "
                write(length, into: &output)
            }
            output += ")"
        case .trim(let value, let edge, let character):
            output += "TRIM("
            if edge != .both || character != nil {
                output += edge.rawValue + " "
                if let character { output += StringLiteralSyntax.quoted(String(character)) + " " }
                output += "FROM "
            }
            write(value, into: &output)
            output += ")"
        case .cast(let value, let target):
            output += "CAST("
            write(value, into: &output)
            output += " AS " + target.sql + ")"
        case .currentDate, .currentTimestamp:
            output += function.name
        }
    }

    static func text(of literal: Literal) -> String {
        switch literal {
        case .integer(let value): return String(value)
        case .double(let value): return Literal.canonical(value)
        case .string(let value): return StringLiteralSyntax.quoted(value)
        case .date(let date): return "DATE '" + date.description + "'"
        case .timestamp(let timestamp): return "TIMESTAMP '\(timestamp)'"
        }
    }
}
