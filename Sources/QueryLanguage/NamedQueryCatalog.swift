/// What a request asks for: a query the operator named, or a clause of its own.
package enum ClauseRequest: Hashable, Sendable {
    /// A named query from the catalog, such as `government`.
    case named(String)
    /// A where clause in ArcGIS SQL, sent by another service.
    case free(String)
}

/// A named where clause, as the operator configures it.
package struct NamedQuery: Hashable, Sendable {
    package var name: String
    package var clause: String

    package init(name: String, clause: String) {
        self.name = name
        self.clause = clause
    }
}

/// The where clauses the operator has named, and whether requests may send their own.
///
/// Requests can then say `government` instead of `UseType = 'Government'`, and an operator who does not
/// want other services' SQL to reach the feature services switches free clauses off. Every named clause is
/// parsed when the catalog is built, so a typo in the configuration stops the worker at start with an error
/// naming the query, not at the first request.
package struct NamedQueryCatalog: Sendable {
    /// The seven queries of the seed (the ArcGIS Maps SDK "query a feature layer" tutorial, LA County parcels).
    package static let builtInExamples: [NamedQuery] = [
        NamedQuery(name: "government", clause: "UseType = 'Government'"),
        NamedQuery(name: "residential", clause: "UseType = 'Residential'"),
        NamedQuery(name: "farm", clause: "UseType = 'Irrigated Farm'"),
        NamedQuery(name: "taxRate10853", clause: "TaxRateArea = 10853"),
        NamedQuery(name: "taxRate10860", clause: "TaxRateArea = 10860"),
        NamedQuery(name: "landValueGreaterThan", clause: "Roll_LandValue > 1000000"),
        NamedQuery(name: "landValueLessThan", clause: "Roll_LandValue < 1000000"),
    ]

    /// Whether requests may send clauses of their own (``ClauseRequest/free(_:)``).
    package let allowFreeClauses: Bool
    /// The limits free clauses are read with.
    package let limits: ClauseLimits
    private let clauses: [String: WhereClause]

    /// The catalog of `additional` queries, on top of the built-in examples unless `includeBuiltIns` is false.
    ///
    /// An additional query may replace a built-in one of the same name; two additional queries may not share
    /// a name. Names are letters, digits, `_` and `-`.
    package init(
        additional: [NamedQuery] = [],
        includeBuiltIns: Bool = true,
        allowFreeClauses: Bool = true,
        limits: ClauseLimits = .default
    ) throws(QueryLanguageError) {
        var clauses: [String: WhereClause] = [:]
        if includeBuiltIns {
            for query in Self.builtInExamples { clauses[query.name] = try Self.parse(query, limits: limits) }
        }
        var seen = Set<String>()
        for query in additional {
            guard seen.insert(query.name).inserted else {
                throw QueryLanguageError(
                    code: .invalidNamedQuery, message: "the named query '\(query.name)' is configured twice")
            }
            clauses[query.name] = try Self.parse(query, limits: limits)
        }
        self.clauses = clauses
        self.allowFreeClauses = allowFreeClauses
        self.limits = limits
    }

    /// The names, sorted.
    package var names: [String] { clauses.keys.sorted() }

    /// The clause a name stands for, if any.
    package func clause(named name: String) -> WhereClause? { clauses[name] }

    /// The clause a request asks for, checked against `layer` when one is given.
    package func resolve(
        _ request: ClauseRequest, against layer: LayerSchema? = nil
    ) throws(QueryLanguageError) -> WhereClause {
        let clause: WhereClause
        switch request {
        case .named(let name):
            guard let found = clauses[name] else { throw unknownName(name) }
            clause = found
        case .free(let text):
            guard allowFreeClauses else {
                throw QueryLanguageError(
                    code: .freeClausesDisabled,
                    message: "this worker accepts only named queries, not where clauses; name one of: "
                        + NameSuggestion.list(names))
            }
            clause = try WhereClause(text, limits: limits)
        }
        guard let layer else { return clause }
        return try clause.validated(against: layer)
    }

    /// Names the unknown query, asks about the closest name when one is close, then lists the names (or says
    /// there are none): parts joined by `; ` as in this module's other messages, none left unfinished.
    private func unknownName(_ name: String) -> QueryLanguageError {
        let names = self.names
        let shown = SourceColumn.excerpt(name)
        var message = "unknown named query '\(shown)'"
        guard !names.isEmpty else {
            return QueryLanguageError(code: .unknownNamedQuery, message: message + "; this worker has no named queries")
        }
        if let suggestion = NameSuggestion.closest(to: name, among: names) {
            message += "; did you mean '\(suggestion)'? The named queries are: "
        } else {
            message += "; the named queries are: "
        }
        return QueryLanguageError(code: .unknownNamedQuery, message: message + NameSuggestion.list(names))
    }

    private static func parse(_ query: NamedQuery, limits: ClauseLimits) throws(QueryLanguageError) -> WhereClause {
        let validName = !query.name.isEmpty && query.name.utf8.count <= 64 && query.name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
        guard validName else {
            throw QueryLanguageError(
                code: .invalidNamedQuery,
                message: "the named query '\(SourceColumn.excerpt(query.name))' has an invalid name: use up to 64 "
                    + "letters, digits, _ and -")
        }
        do {
            return try WhereClause(query.clause, limits: limits)
        } catch {
            throw QueryLanguageError(
                code: .invalidNamedQuery,
                message: "the named query '\(query.name)' has an invalid clause: \(error.message)",
                column: error.column)
        }
    }
}
