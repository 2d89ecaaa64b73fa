import FeatureQuerySupport

/// A where clause that has been read and checked for syntax: the value the rest of the worker passes around.
///
/// Create one from ArcGIS SQL text (``init(_:limits:)``), from raw bytes of unknown provenance
/// (``init(utf8:limits:)``), or from CQL2 text (``init(cql2Text:limits:)``). Any input either gives a clause
/// or throws a ``QueryLanguageError``; nothing outside the subset (subqueries, `;`, comments, unknown
/// functions) gets through. Then ``validated(against:)`` checks fields and types against a layer, the
/// renderers write it for ArcGIS (``arcGISSQL``) or OGC API Features (``cql2Text(_:)``, ``cql2JSON(_:)``),
/// and ``compile(fieldNames:context:)`` makes it a fast predicate over records.
///
/// Two clauses are equal when their expressions are; the text they came from is not compared.
package struct WhereClause: Hashable, Sendable, CustomStringConvertible {
    /// The syntax tree.
    package let expression: FilterExpression
    /// The text the clause was read from, which error columns refer to; nil when built from an expression.
    package let sourceText: String?

    /// Reads an ArcGIS (standardized-query) SQL where clause.
    package init(_ text: String, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        try self.init(text: text, dialect: .arcGISSQL, limits: limits)
    }

    /// Reads a clause that arrived as bytes (a Kafka message field, an HTTP parameter): the length is checked
    /// before anything else, then the encoding, then the syntax.
    package init(utf8 bytes: some Collection<UInt8>, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        try Self.checkLength(bytes.count, limits: limits)
        let array = Array(bytes)
        if let offset = array.withUnsafeBufferPointer({ UTF8Validation.firstInvalidOffset(in: $0) }) {
            let column = SourceColumn.column(in: Array(array[0..<offset]), at: offset)
            throw QueryLanguageError(
                code: .invalidEncoding,
                message: "the clause is not valid UTF-8: byte \(offset) (column \(column)) starts an invalid "
                    + "sequence; send the clause as UTF-8 text",
                column: column)
        }
        let text = String(decoding: array, as: UTF8.self)
        self.expression = try Parser.parse(array, dialect: .arcGISSQL, limits: limits)
        self.sourceText = text
    }

    /// Reads an OGC CQL2 text filter (the subset this module can express) into the same tree, so that a
    /// filter received by an OGC API server can be evaluated or sent on to ArcGIS.
    package init(cql2Text text: String, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        try self.init(text: text, dialect: .cql2Text, limits: limits)
    }

    /// Wraps an expression built in code, refusing one that is not a condition or is deeper than the limit
    /// (every walk over the tree is recursive).
    package init(expression: FilterExpression, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        guard expression.isCondition else {
            throw QueryLanguageError(
                code: .notACondition, message: "a where clause is a condition, such as UseType = 'Residential'")
        }
        guard expression.depth <= limits.maxDepth else {
            throw QueryLanguageError(
                code: .nestingTooDeep, message: "the clause nests more than \(limits.maxDepth) levels deep")
        }
        self.expression = expression
        self.sourceText = nil
    }

    init(checkedExpression: FilterExpression, sourceText: String?) {
        self.expression = checkedExpression
        self.sourceText = sourceText
    }

    private init(text: String, dialect: Dialect, limits: ClauseLimits) throws(QueryLanguageError) {
        try Self.checkLength(text.utf8.count, limits: limits)
        let bytes = text.utf8.withContiguousStorageIfAvailable { Array($0) } ?? Array(text.utf8)
        self.expression = try Parser.parse(bytes, dialect: dialect, limits: limits)
        self.sourceText = text
    }

    private static func checkLength(_ count: Int, limits: ClauseLimits) throws(QueryLanguageError) {
        guard count > limits.maxClauseBytes else { return }
        throw QueryLanguageError(
            code: .clauseTooLong,
            message: "the clause is \(count) bytes long; the limit is \(limits.maxClauseBytes) bytes. Use fewer "
                + "values, or a named query")
    }

    /// The fields the clause refers to, as written, in order of first use.
    package var referencedFields: [String] { expression.referencedFields }

    /// The clause in normalized ArcGIS SQL.
    package var description: String { arcGISSQL }

    package static func == (lhs: WhereClause, rhs: WhereClause) -> Bool { lhs.expression == rhs.expression }
    package func hash(into hasher: inout Hasher) { hasher.combine(expression) }
}
