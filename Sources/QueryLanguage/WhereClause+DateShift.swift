extension WhereClause {
    /// The clause with each `DATE` or `TIMESTAMP` literal that is compared with a date field of `schema`
    /// (`=`, `<>`, `<`..., `BETWEEN`, `IN`) replaced by the `TIMESTAMP` `shift` gives for its instant.
    ///
    /// Why: the contract's dates are UTC, but an ArcGIS layer whose `dateFieldsTimeReference` is not UTC reads
    /// a where clause's literals as its own wall time. The engine gives a UTC-to-local `shift` (and the sample
    /// server the reverse). A `DATE 'd'` stands for midnight UTC of `d` (what it means on a UTC layer) and so
    /// becomes a `TIMESTAMP` of that instant's local wall time. A date literal anywhere else (compared with
    /// `CAST(...)`, `CURRENT_DATE`, another literal) has no instant that could be shifted safely, so when the
    /// clause reads a date field it is refused (``QueryLanguageError/Code/typeMismatch``) rather than guessed.
    /// `shift` may throw (an unknown zone): the clause is then refused with its error. Call on a clause
    /// validated against `schema` (field names spelt as the layer spells them).
    package func shiftingDateLiterals(
        schema: LayerSchema, _ shift: @escaping (CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp
    ) throws(QueryLanguageError) -> WhereClause {
        let shifter = DateLiteralShifter(schema: schema, shift: shift)
        let expression = try shifter.walk(expression)
        if let stray = shifter.unshiftable, shifter.readsDateField {
            throw QueryLanguageError(
                code: .typeMismatch, message:
                "\(ArcGISSQLRenderer.text(of: stray)) is not compared directly with a date field; this layer keeps "
                    + "its dates in a local time zone, so write the comparison as date_field <op> DATE or TIMESTAMP")
        }
        return WhereClause(checkedExpression: expression, sourceText: nil)
    }
}

/// The walk behind ``WhereClause/shiftingDateLiterals(schema:_:)``: a class, so that the argument lists of
/// functions (mapped by a non-throwing closure) can record the first failure and the walk's findings.
private final class DateLiteralShifter {
    let schema: LayerSchema
    let shift: (CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp
    /// A date literal seen where it could not be shifted.
    var unshiftable: Literal?
    /// Whether the clause names a date field anywhere.
    var readsDateField = false
    /// The first failure of `shift` inside a function's arguments.
    private var failure: QueryLanguageError?

    init(schema: LayerSchema, shift: @escaping (CalendarTimestamp) throws(QueryLanguageError) -> CalendarTimestamp) {
        self.schema = schema
        self.shift = shift
    }

    func walk(_ expression: FilterExpression) throws(QueryLanguageError) -> FilterExpression {
        switch expression.node {
        case .comparison(let op, let left, let right):
            if isDateField(left), let shifted = try shifted(right) {
                return expression.replacing(.comparison(op, left, shifted))
            }
            if isDateField(right), let shifted = try shifted(left) {
                return expression.replacing(.comparison(op, shifted, right))
            }
            return expression.replacing(.comparison(op, try walk(left), try walk(right)))
        case .between(let value, let low, let high, let negated):
            if isDateField(value) {
                readsDateField = true
                return expression.replacing(
                    .between(value, low: try shiftedOrWalked(low), high: try shiftedOrWalked(high), negated: negated))
            }
            return expression.replacing(
                .between(try walk(value), low: try walk(low), high: try walk(high), negated: negated))
        case .inList(let value, let items, let negated):
            let dateField = isDateField(value)
            var mapped: [FilterExpression] = []
            mapped.reserveCapacity(items.count)
            for item in items { mapped.append(dateField ? try shiftedOrWalked(item) : try walk(item)) }
            return expression.replacing(.inList(try walk(value), mapped, negated: negated))
        case .field:
            if isDateField(expression) { readsDateField = true }
            return expression
        case .literal(let literal):
            switch literal {
            case .date, .timestamp: unshiftable = unshiftable ?? literal
            case .integer, .double, .string: break
            }
            return expression
        case .negate(let operand):
            return expression.replacing(.negate(try walk(operand)))
        case .arithmetic(let op, let left, let right):
            return expression.replacing(.arithmetic(op, try walk(left), try walk(right)))
        case .function(let function):
            let mapped = function.mappingArguments { self.walkRecordingFailure($0) }
            if let failure { throw failure }
            return expression.replacing(.function(mapped))
        case .and(let terms):
            return expression.replacing(.and(try walkAll(terms)))
        case .or(let terms):
            return expression.replacing(.or(try walkAll(terms)))
        case .not(let operand):
            return expression.replacing(.not(try walk(operand)))
        case .isNull(let operand, let negated):
            return expression.replacing(.isNull(try walk(operand), negated: negated))
        case .like(let operand, let pattern, let escape, let negated):
            return expression.replacing(.like(try walk(operand), pattern: pattern, escape: escape, negated: negated))
        }
    }

    private func walkAll(_ terms: [FilterExpression]) throws(QueryLanguageError) -> [FilterExpression] {
        var walked: [FilterExpression] = []
        walked.reserveCapacity(terms.count)
        for term in terms { walked.append(try walk(term)) }
        return walked
    }

    private func walkRecordingFailure(_ expression: FilterExpression) -> FilterExpression {
        guard failure == nil else { return expression }
        do {
            return try walk(expression)
        } catch {
            failure = error
            return expression
        }
    }

    private func shiftedOrWalked(_ expression: FilterExpression) throws(QueryLanguageError) -> FilterExpression {
        if let shifted = try shifted(expression) { return shifted }
        return try walk(expression)
    }

    /// The shifted literal when `expression` is a date or timestamp literal; nil otherwise.
    private func shifted(_ expression: FilterExpression) throws(QueryLanguageError) -> FilterExpression? {
        let instant: CalendarTimestamp
        switch expression.node {
        case .literal(.timestamp(let timestamp)):
            instant = timestamp
        case .literal(.date(let date)):
            guard let midnight = CalendarTimestamp(date: date, hour: 0, minute: 0, second: 0) else { return nil }
            instant = midnight
        default:
            return nil
        }
        readsDateField = true
        return expression.replacing(.literal(.timestamp(try shift(instant))))
    }

    private func isDateField(_ expression: FilterExpression) -> Bool {
        guard case .field(let name) = expression.node else { return false }
        return schema.field(named: name)?.type == .date
    }
}
