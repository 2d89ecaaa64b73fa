/// Turns a clause into closures once, so that evaluating a record is a few indirect calls.
struct FilterCompiler {
    typealias ValueProgram = @Sendable ([AttributeValue]) -> AttributeValue
    typealias ConditionProgram = @Sendable ([AttributeValue]) -> TruthValue

    let context: EvaluationContext
    let sourceText: String?
    private let fieldNames: [String]
    private let positions: [String: Int]

    init(fieldNames: [String], context: EvaluationContext, sourceText: String?) {
        self.fieldNames = fieldNames
        self.context = context
        self.sourceText = sourceText
        var positions: [String: Int] = [:]
        for (index, name) in fieldNames.enumerated() where positions[LayerSchema.fold(name)] == nil {
            positions[LayerSchema.fold(name)] = index
        }
        self.positions = positions
    }

    func condition(_ expression: FilterExpression) throws(QueryLanguageError) -> ConditionProgram {
        switch expression.node {
        case .and(let terms):
            let programs = try terms.map { (term) throws(QueryLanguageError) in try condition(term) }
            if programs.count == 2 {
                let (first, second) = (programs[0], programs[1])
                return { record in
                    let a = first(record)
                    return a == .false ? .false : a.and(second(record))
                }
            }
            return { record in
                var result = TruthValue.true
                for program in programs {
                    let value = program(record)
                    if value == .false { return .false }
                    if value == .unknown { result = .unknown }
                }
                return result
            }
        case .or(let terms):
            let programs = try terms.map { (term) throws(QueryLanguageError) in try condition(term) }
            return { record in
                var result = TruthValue.false
                for program in programs {
                    let value = program(record)
                    if value == .true { return .true }
                    if value == .unknown { result = .unknown }
                }
                return result
            }
        case .not(let inner):
            let program = try condition(inner)
            return { record in program(record).negated }
        case .comparison(let op, let left, let right):
            return try comparison(op, left, right)
        case .isNull(let inner, let negated):
            let program = try value(inner)
            return { record in TruthValue(program(record).isNull != negated) }
        case .inList(let inner, let items, let negated):
            return try inList(inner, items, negated: negated)
        case .between(let inner, let low, let high, let negated):
            let (v, l, h) = (try value(inner), try value(low), try value(high))
            return { record in
                let x = v(record)
                let above = ValueOperations.compare(x, l(record)).map { TruthValue($0 >= 0) } ?? .unknown
                if above == .false { return negated ? .true : .false }
                let below = ValueOperations.compare(x, h(record)).map { TruthValue($0 <= 0) } ?? .unknown
                let result = above.and(below)
                return negated ? result.negated : result
            }
        case .like(let inner, let pattern, let escape, let negated):
            let program = try value(inner)
            let matcher = LikeMatcher(pattern: pattern, escape: escape)
            return { record in
                guard case .string(let text) = program(record) else { return .unknown }
                return TruthValue(matcher.matches(text) != negated)
            }
        case .field, .literal, .negate, .arithmetic, .function:
            throw QueryLanguageError(code: .notACondition, message: "expected a condition, found a value")
        }
    }

    private func comparison(
        _ op: ComparisonOperator, _ left: FilterExpression, _ right: FilterExpression
    ) throws(QueryLanguageError) -> ConditionProgram {
        // The common shape, field against literal, reads the field in place.
        var shape: (position: Int, op: ComparisonOperator, constant: AttributeValue)? = nil
        if case .field(let name) = left.node, case .literal(let literal) = right.node {
            shape = (try position(of: name, at: left), op, AttributeValue(literal))
        } else if case .literal(let literal) = left.node, case .field(let name) = right.node {
            shape = (try position(of: name, at: right), op.mirrored, AttributeValue(literal))
        }
        if let (position, op, constant) = shape {
            if op == .equal || op == .notEqual {
                let wanted = op == .equal
                return { record in
                    guard position < record.count, let equal = ValueOperations.equals(record[position], constant)
                    else { return .unknown }
                    return TruthValue(equal == wanted)
                }
            }
            return { record in
                guard position < record.count, let ordering = ValueOperations.compare(record[position], constant)
                else { return .unknown }
                return TruthValue(op.holds(ordering))
            }
        }
        let (l, r) = (try value(left), try value(right))
        return { record in
            guard let ordering = ValueOperations.compare(l(record), r(record)) else { return .unknown }
            return TruthValue(op.holds(ordering))
        }
    }

    private func inList(
        _ inner: FilterExpression, _ items: [FilterExpression], negated: Bool
    ) throws(QueryLanguageError) -> ConditionProgram {
        let program = try value(inner)
        var constants: [AttributeValue] = []
        for item in items {
            guard case .literal(let literal) = item.node else { break }
            constants.append(AttributeValue(literal))
        }
        if constants.count == items.count {
            let set = ConstantSet(constants)
            return { record in
                let result = set.contains(program(record))
                return negated ? result.negated : result
            }
        }
        let programs = try items.map { (item) throws(QueryLanguageError) in try value(item) }
        return { record in
            let x = program(record)
            var result = TruthValue.false
            for item in programs {
                switch ValueOperations.equals(x, item(record)) {
                case true?: return negated ? .false : .true
                case nil: result = .unknown
                case false?: break
                }
            }
            return negated ? result.negated : result
        }
    }

    func value(_ expression: FilterExpression) throws(QueryLanguageError) -> ValueProgram {
        switch expression.node {
        case .field(let name):
            let position = try position(of: name, at: expression)
            return { record in position < record.count ? record[position] : .null }
        case .literal(let literal):
            let constant = AttributeValue(literal)
            return { _ in constant }
        case .negate(let inner):
            let program = try value(inner)
            return { record in ValueOperations.negate(program(record)) }
        case .arithmetic(let op, let left, let right):
            let (l, r) = (try value(left), try value(right))
            return { record in ValueOperations.arithmetic(op, l(record), r(record)) }
        case .function(let function):
            return try self.function(function)
        case .comparison, .and, .or, .not, .isNull, .inList, .between, .like:
            throw QueryLanguageError(code: .notACondition, message: "expected a value, found a condition")
        }
    }

    private func function(_ function: ScalarFunction) throws(QueryLanguageError) -> ValueProgram {
        switch function {
        case .upper(let x), .caseInsensitive(let x):
            let program = try value(x)
            return { record in FunctionEvaluation.upper(program(record)) }
        case .lower(let x):
            let program = try value(x)
            return { record in FunctionEvaluation.lower(program(record)) }
        case .charLength(let x):
            let program = try value(x)
            return { record in FunctionEvaluation.charLength(program(record)) }
        case .abs(let x):
            let program = try value(x)
            return { record in FunctionEvaluation.abs(program(record)) }
        case .round(let x, let digits):
            let program = try value(x)
            let places = digits ?? 0
            return { record in FunctionEvaluation.round(program(record), digits: places) }
        case .substring(let x, let start, let length):
            let (text, from) = (try value(x), try value(start))
            let count = try length.map { (length) throws(QueryLanguageError) in try value(length) }
            return { record in FunctionEvaluation.substring(text(record), start: from(record), length: count?(record)) }
        case .trim(let x, let edge, let character):
            let program = try value(x)
            let removed = character ?? " "
            return { record in FunctionEvaluation.trim(program(record), edge: edge, character: removed) }
        case .cast(let x, let target):
            let program = try value(x)
            return { record in FunctionEvaluation.cast(program(record), to: target) }
        case .currentDate:
            let today = AttributeValue.date(FunctionEvaluation.startOfDay(context.currentTimeMilliseconds))
            return { _ in today }
        case .currentTimestamp:
            let now = AttributeValue.date(context.currentTimeMilliseconds)
            return { _ in now }
        }
    }

    private func position(of name: String, at expression: FilterExpression) throws(QueryLanguageError) -> Int {
        if let position = positions[LayerSchema.fold(name)] { return position }
        var message = "unknown field '\(SourceColumn.excerpt(name))'"
        var column: Int? = nil
        if let offset = expression.sourceOffset, let sourceText {
            column = SourceColumn.column(in: sourceText, at: offset)
            message += " at column \(column ?? 0)"
        }
        if let suggestion = NameSuggestion.closest(to: name, among: fieldNames) {
            message += "; did you mean '\(suggestion)'?"
        } else {
            message += "; the records have the fields \(NameSuggestion.list(fieldNames))"
        }
        throw QueryLanguageError(code: .unknownField, message: message, column: column)
    }
}

/// The literals of an `IN` list, hashed by kind, with SQL's rule that a value of another kind compares as
/// unknown rather than false.
private struct ConstantSet: Sendable {
    private var integers = Set<Int64>()
    private var fractions = Set<Double>()
    private var strings = Set<String>()
    private var dates = Set<Int64>()

    init(_ constants: [AttributeValue]) {
        for constant in constants {
            switch constant {
            case .integer(let x): integers.insert(x)
            case .double(let x):
                if let whole = Int64(exactly: x) { integers.insert(whole) } else if !x.isNaN { fractions.insert(x) }
            case .string(let x): strings.insert(x)
            case .date(let x): dates.insert(x)
            case .null: break
            }
        }
    }

    private var hasNumbers: Bool { !integers.isEmpty || !fractions.isEmpty }

    func contains(_ value: AttributeValue) -> TruthValue {
        switch value {
        case .null:
            return .unknown
        case .integer(let x):
            if integers.contains(x) { return .true }
            return strings.isEmpty && dates.isEmpty ? .false : .unknown
        case .double(let x):
            if x.isNaN { return .unknown }
            if let whole = Int64(exactly: x), integers.contains(whole) { return .true }
            if fractions.contains(x) { return .true }
            return strings.isEmpty && dates.isEmpty ? .false : .unknown
        case .string(let x):
            if strings.contains(x) { return .true }
            return !hasNumbers && dates.isEmpty ? .false : .unknown
        case .date(let x):
            if dates.contains(x) { return .true }
            return !hasNumbers && strings.isEmpty ? .false : .unknown
        }
    }
}
