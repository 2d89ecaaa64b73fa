extension WhereClause {
    /// Checks the clause against a layer's fields and returns it in the layer's terms.
    ///
    /// Every field must exist (an unknown one is an error that suggests the closest name) and have a type
    /// where clauses can use; compared and combined values must have the same type. The clause returned
    /// spells field names as the layer does and turns date strings compared with date fields
    /// (`Opened = '2020-01-31'`) into `DATE` / `TIMESTAMP` literals, so the renderers write them properly.
    package func validated(against layer: LayerSchema) throws(QueryLanguageError) -> WhereClause {
        let validator = ClauseValidator(layer: layer, sourceText: sourceText)
        return WhereClause(checkedExpression: try validator.condition(expression), sourceText: sourceText)
    }
}

/// The type checker behind ``WhereClause/validated(against:)``.
struct ClauseValidator {
    let layer: LayerSchema
    let sourceText: String?

    typealias Typed = (expression: FilterExpression, kind: ValueKind)

    func condition(_ expression: FilterExpression) throws(QueryLanguageError) -> FilterExpression {
        switch expression.node {
        case .and(let terms):
            return expression.replacing(.and(try terms.map { (term) throws(QueryLanguageError) in try condition(term) }))
        case .or(let terms):
            return expression.replacing(.or(try terms.map { (term) throws(QueryLanguageError) in try condition(term) }))
        case .not(let inner):
            return expression.replacing(.not(try condition(inner)))
        case .comparison(let op, let left, let right):
            let (checkedLeft, checkedRight) = try reconcile(try value(left), try value(right))
            return expression.replacing(.comparison(op, checkedLeft, checkedRight))
        case .isNull(let inner, let negated):
            return expression.replacing(.isNull(try value(inner).expression, negated: negated))
        case .inList(let inner, let items, let negated):
            let typed = try value(inner)
            var checkedItems: [FilterExpression] = []
            checkedItems.reserveCapacity(items.count)
            for item in items { checkedItems.append(try reconcile(typed, try value(item)).1) }
            return expression.replacing(.inList(typed.expression, checkedItems, negated: negated))
        case .between(let inner, let low, let high, let negated):
            let typed = try value(inner)
            let checkedLow = try reconcile(typed, try value(low)).1
            let checkedHigh = try reconcile(typed, try value(high)).1
            return expression.replacing(.between(typed.expression, low: checkedLow, high: checkedHigh, negated: negated))
        case .like(let inner, let pattern, let escape, let negated):
            let typed = try require(try value(inner), .string, "LIKE matches strings")
            return expression.replacing(.like(typed, pattern: pattern, escape: escape, negated: negated))
        case .field, .literal, .negate, .arithmetic, .function:
            throw error(.notACondition, at: expression) {
                "expected a condition such as Field = 'value'\($0), found a value"
            }
        }
    }

    func value(_ expression: FilterExpression) throws(QueryLanguageError) -> Typed {
        switch expression.node {
        case .field(let name):
            let field = try lookUp(name, at: expression)
            return (expression.replacing(.field(field.name)), field.type.valueKind)
        case .literal(let literal):
            return (expression, kind(of: literal))
        case .negate(let inner):
            let operand = try require(try value(inner), .number, "minus applies to numbers")
            return (expression.replacing(.negate(operand)), .number)
        case .arithmetic(let op, let left, let right):
            let checkedLeft = try require(try value(left), .number, "\(op.rawValue) works on numbers")
            let checkedRight = try require(try value(right), .number, "\(op.rawValue) works on numbers")
            return (expression.replacing(.arithmetic(op, checkedLeft, checkedRight)), .number)
        case .function(let function):
            let (checked, kind) = try self.function(function)
            return (expression.replacing(.function(checked)), kind)
        case .comparison, .and, .or, .not, .isNull, .inList, .between, .like:
            throw error(.notACondition, at: expression) { "expected a value\($0), found a condition" }
        }
    }

    private func function(_ function: ScalarFunction) throws(QueryLanguageError) -> (ScalarFunction, ValueKind) {
        let name = function.name
        switch function {
        case .upper(let x):
            return (.upper(try require(try value(x), .string, "\(name) works on strings")), .string)
        case .lower(let x):
            return (.lower(try require(try value(x), .string, "\(name) works on strings")), .string)
        case .caseInsensitive(let x):
            return (.caseInsensitive(try require(try value(x), .string, "CASEI works on strings")), .string)
        case .charLength(let x):
            return (.charLength(try require(try value(x), .string, "\(name) works on strings")), .number)
        case .abs(let x):
            return (.abs(try require(try value(x), .number, "\(name) works on numbers")), .number)
        case .round(let x, let digits):
            return (.round(try require(try value(x), .number, "\(name) works on numbers"), digits: digits), .number)
        case .substring(let x, let start, let length):
            let text = try require(try value(x), .string, "SUBSTRING works on strings")
            let from = try require(try value(start), .number, "SUBSTRING's start is a number")
            var count: FilterExpression? = nil
            if let length { count = try require(try value(length), .number, "SUBSTRING's length is a number") }
            return (.substring(text, start: from, length: count), .string)
        case .trim(let x, let edge, let character):
            return (.trim(try require(try value(x), .string, "TRIM works on strings"), edge: edge, character: character), .string)
        case .cast(let x, let target):
            let typed = try value(x)
            let result: ValueKind
            switch target {
            case .integer, .smallInteger, .float, .real: result = .number
            case .varchar, .char: result = .string
            case .date, .timestamp: result = .date
            }
            if (result == .number && typed.kind == .date) || (result == .date && typed.kind == .number) {
                throw error(.typeMismatch, at: x) {
                    "CAST can't turn \(describe(typed))\($0) into \(target.sql)"
                }
            }
            return (.cast(typed.expression, to: target), result)
        case .currentDate, .currentTimestamp:
            return (function, .date)
        }
    }

    // MARK: - Types

    private func kind(of literal: Literal) -> ValueKind {
        switch literal {
        case .integer, .double: return .number
        case .string: return .string
        case .date, .timestamp: return .date
        }
    }

    private func require(
        _ typed: Typed, _ expected: ValueKind, _ reason: @autoclosure () -> String
    ) throws(QueryLanguageError) -> FilterExpression {
        if typed.kind == expected { return typed.expression }
        if expected == .date, let date = dateLiteral(from: typed.expression) { return date }
        throw error(.typeMismatch, at: typed.expression) {
            "\(reason()), but \(describe(typed))\($0) is a \(typed.kind.noun)"
        }
    }

    /// Two values that are compared: they must be of one kind, except that a string that spells a date or
    /// time may stand for a date, and becomes a date literal.
    private func reconcile(_ left: Typed, _ right: Typed) throws(QueryLanguageError) -> (FilterExpression, FilterExpression) {
        if left.kind == right.kind { return (left.expression, right.expression) }
        if left.kind == .date, let date = dateLiteral(from: right.expression) { return (left.expression, date) }
        if right.kind == .date, let date = dateLiteral(from: left.expression) { return (date, right.expression) }
        throw mismatch(left, right)
    }

    private func dateLiteral(from expression: FilterExpression) -> FilterExpression? {
        guard case .literal(.string(let text)) = expression.node else { return nil }
        if let date = CalendarDate(parsing: text) { return expression.replacing(.literal(.date(date))) }
        if let timestamp = CalendarTimestamp(parsing: text) {
            return expression.replacing(.literal(.timestamp(timestamp)))
        }
        return nil
    }

    private func mismatch(_ left: Typed, _ right: Typed) -> QueryLanguageError {
        let (other, culprit) = isLiteral(left.expression) && !isLiteral(right.expression) ? (right, left) : (left, right)
        var hint = ""
        if case .literal(let literal) = culprit.expression.node {
            switch (other.kind, literal) {
            case (.number, .string(let text)) where Double(text) != nil:
                hint = "; write the number without quotes: \(text)"
            case (.string, .integer), (.string, .double):
                hint = "; put the value in single quotes: '\(ArcGISSQLRenderer.text(of: literal))'"
            case (.date, .string(let text)):
                hint = "; '\(SourceColumn.excerpt(text))' is not a date: write DATE 'yyyy-mm-dd' or TIMESTAMP "
                    + "'yyyy-mm-dd hh:mm:ss'"
            case (.date, _):
                hint = "; write dates as DATE 'yyyy-mm-dd' or TIMESTAMP 'yyyy-mm-dd hh:mm:ss'"
            default:
                break
            }
        }
        return error(.typeMismatch, at: culprit.expression) {
            "\(describe(other)) is compared with \(describe(culprit))\($0)\(hint)"
        }
    }

    private func isLiteral(_ expression: FilterExpression) -> Bool {
        if case .literal = expression.node { return true }
        return false
    }

    private func describe(_ typed: Typed) -> String {
        switch typed.expression.node {
        case .field(let name):
            let type = layer.field(named: name)?.type.esriName ?? ""
            return "the \(typed.kind.noun) field \(name) (\(type))"
        case .literal(.string(let text)):
            return "the string '\(SourceColumn.excerpt(text))'"
        case .literal(let literal):
            return "the \(typed.kind.noun) \(ArcGISSQLRenderer.text(of: literal))"
        default:
            return "a \(typed.kind.noun) expression"
        }
    }

    // MARK: - Fields

    private func lookUp(_ name: String, at expression: FilterExpression) throws(QueryLanguageError) -> LayerField {
        if let field = layer.field(named: name) { return field }
        let folded = LayerSchema.fold(name)
        if let (actual, type) = layer.unusableFields.first(where: { LayerSchema.fold($0.key) == folded }) {
            throw error(.unusableField, at: expression) {
                "the field \(actual)\($0) has type \(type), which where clauses can't use"
            }
        }
        let names = layer.fields.map(\.name)
        let shown = SourceColumn.excerpt(name)
        if let suggestion = NameSuggestion.closest(to: name, among: names) {
            throw error(.unknownField, at: expression) {
                "unknown field '\(shown)'\($0); did you mean '\(suggestion)'?"
            }
        }
        throw error(.unknownField, at: expression) {
            "unknown field '\(shown)'\($0); the layer's fields are \(NameSuggestion.list(names))"
        }
    }

    /// An error pointing at `expression`; `message` gets " at column N", or "" when the position is unknown.
    private func error(
        _ code: QueryLanguageError.Code, at expression: FilterExpression, _ message: (String) -> String
    ) -> QueryLanguageError {
        guard let offset = expression.sourceOffset, let sourceText else {
            return QueryLanguageError(code: code, message: message(""), column: nil)
        }
        let column = SourceColumn.column(in: sourceText, at: offset)
        return QueryLanguageError(code: code, message: message(" at column \(column)"), column: column)
    }
}
