/// An error from reading, checking, translating or resolving a where clause.
///
/// A struct with an extensible ``Code`` rather than an enum, so that new codes can be added without breaking
/// callers' `switch` statements (the style of the Kafka bridge's `KafkaError`). ``message`` is written for the
/// person who wrote the clause: it says what is wrong, where, and what to write instead. Callers branch on
/// ``code`` and pass ``message`` on unchanged.
package struct QueryLanguageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a category a caller can branch on.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The clause is longer than ``ClauseLimits/maxClauseBytes``; rejected before it is read.
        package static let clauseTooLong = Code("clause_too_long")
        /// The clause's bytes are not valid UTF-8.
        package static let invalidEncoding = Code("invalid_encoding")
        /// The clause is empty or only white space.
        package static let emptyClause = Code("empty_clause")
        /// A character that has no meaning in a where clause.
        package static let unexpectedCharacter = Code("unexpected_character")
        /// A string literal has no closing quote.
        package static let unterminatedString = Code("unterminated_string")
        /// A double-quoted field name has no closing quote.
        package static let unterminatedIdentifier = Code("unterminated_identifier")
        /// A number is malformed or too large.
        package static let invalidNumber = Code("invalid_number")
        /// A `DATE` or `TIMESTAMP` literal is not a real date or time.
        package static let invalidDate = Code("invalid_date")
        /// The words are in an order the grammar does not allow.
        package static let syntaxError = Code("syntax_error")
        /// Parentheses, function calls or operators nest deeper than ``ClauseLimits/maxDepth``.
        package static let nestingTooDeep = Code("nesting_too_deep")
        /// The clause has more tokens than ``ClauseLimits/maxTokens``.
        package static let tooManyTokens = Code("too_many_tokens")
        /// An `IN` list has more values than ``ClauseLimits/maxListItems``.
        package static let listTooLong = Code("list_too_long")
        /// A field name is longer than ``ClauseLimits/maxIdentifierBytes``.
        package static let identifierTooLong = Code("identifier_too_long")
        /// A subquery, a statement separator `;`, a comment or another construct outside the subset: the
        /// injection guard.
        package static let forbiddenConstruct = Code("forbidden_construct")
        /// A function that is not in the subset.
        package static let unknownFunction = Code("unknown_function")
        /// A function got the wrong number or kind of arguments.
        package static let invalidArgument = Code("invalid_argument")
        /// A `LIKE` pattern or its `ESCAPE` character is malformed.
        package static let invalidPattern = Code("invalid_pattern")
        /// A comparison with `NULL`, which is never true: `IS NULL` is meant.
        package static let nullComparison = Code("null_comparison")
        /// A value stands where a condition is needed, or a condition where a value is needed.
        package static let notACondition = Code("not_a_condition")
        /// The layer has no field of that name.
        package static let unknownField = Code("unknown_field")
        /// The layer has the field, but its type (geometry, blob, raster, ...) cannot be used in a where clause.
        package static let unusableField = Code("unusable_field")
        /// Values of different types are compared or combined.
        package static let typeMismatch = Code("type_mismatch")
        /// The layer keeps its dates in a time zone the worker does not know, so a date literal compared with
        /// one of its date fields cannot be written in the layer's terms.
        package static let unknownTimeZone = Code("unknown_time_zone")
        /// The target language (CQL2) cannot express this construct; filter on the client instead.
        package static let unsupportedInTarget = Code("unsupported_in_target")
        /// A CQL2 spatial predicate stands somewhere other than as a top-level `AND` term (under `OR` or
        /// `NOT`): the spatial part of a filter is tested apart from the attribute part, so it can only narrow.
        package static let spatialPredicatePlacement = Code("spatial_predicate_placement")
        /// A CQL2-JSON filter is not JSON, or not the shape CQL2-JSON gives an expression.
        package static let invalidJSON = Code("invalid_json")
        /// A request names a query the catalog does not have.
        package static let unknownNamedQuery = Code("unknown_named_query")
        /// A request sends its own clause, and the operator allows only named queries.
        package static let freeClausesDisabled = Code("free_clauses_disabled")
        /// The operator's configuration of named queries is invalid.
        package static let invalidNamedQuery = Code("invalid_named_query")
    }

    package var code: Code
    package var message: String
    /// The 1-based column (in characters) of the clause text the error points at, when it points at one.
    package var column: Int?

    package init(code: Code, message: String, column: Int? = nil) {
        self.code = code
        self.message = message
        self.column = column
    }

    package var description: String { "QueryLanguageError(\(code)): \(message)" }
}
