extension WhereClause {
    /// Compiles the clause into a predicate over records whose values come in the order of `fieldNames`
    /// (the layer's fields, or the `outFields` of a query).
    ///
    /// Field names are resolved to positions once, here, ignoring letter case; an unknown one throws
    /// ``QueryLanguageError/Code/unknownField``. For client-side filtering (when a server can't take the
    /// filter) and for the sample server.
    package func compile(
        fieldNames: [String], context: EvaluationContext = .now()
    ) throws(QueryLanguageError) -> CompiledFilter {
        let compiler = FilterCompiler(fieldNames: fieldNames, context: context, sourceText: sourceText)
        return CompiledFilter(fieldNames: fieldNames, program: try compiler.condition(expression))
    }
}

/// A where clause compiled into a tree of closures over records (`[AttributeValue]`, one value per field).
///
/// Built once per query and shared across threads; evaluating does no name look-ups and no allocation for
/// the common shapes (field against literal, `AND`, `OR`, `IN` of literals, `LIKE`).
package struct CompiledFilter: Sendable {
    /// The field order records must follow.
    package let fieldNames: [String]
    private let program: FilterCompiler.ConditionProgram

    init(fieldNames: [String], program: @escaping FilterCompiler.ConditionProgram) {
        self.fieldNames = fieldNames
        self.program = program
    }

    /// The condition's value for one record. A record shorter than ``fieldNames`` reads NULL for the rest.
    @inline(__always)
    package func evaluate(_ record: [AttributeValue]) -> TruthValue { program(record) }

    /// Whether the record is selected: only when the condition is true, not when it is unknown.
    @inline(__always)
    package func matches(_ record: [AttributeValue]) -> Bool { program(record) == .true }

    /// The condition's value for a record given as a dictionary keyed by the names in ``fieldNames``.
    package func evaluate(attributes: [String: AttributeValue]) -> TruthValue {
        program(fieldNames.map { attributes[$0] ?? .null })
    }
}
