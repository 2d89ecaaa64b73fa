package import FeatureQuerySupport

/// An OGC CQL2 filter (OGC 21-065r2) as an OGC API Features server receives it in `filter`: read from CQL2
/// text or CQL2-JSON into the attribute condition the rest of the module evaluates, plus the spatial
/// predicates, which the server tests with its own geometry code.
///
/// The attribute part is an ordinary ``WhereClause``, so it is validated, compiled and evaluated exactly as
/// an ArcGIS SQL clause is (one semantics). Spatial predicates may only be top-level `AND` terms; anywhere
/// else the filter is refused with ``QueryLanguageError/Code/spatialPredicatePlacement``. `TRUE` and `FALSE`
/// read as the integers 1 and 0 (the evaluator has no Booleans), so Boolean properties must be given to it
/// as 1 and 0.
package struct CQL2Filter: Hashable, Sendable {
    /// The attribute condition; nil when the filter is only spatial predicates.
    package let attributes: WhereClause?
    /// The spatial predicates, all of which must hold, in the order written.
    package let spatialPredicates: [CQL2SpatialPredicate]
    /// The CQL2 conformance-class URIs (``CQL2Conformance``) the filter needs, sorted: Basic CQL2, the
    /// encoding's class, and the others the filter uses. A server refuses a filter needing one it doesn't declare.
    package let conformanceClasses: [String]

    /// Reads a filter in the encoding `filter-lang` named (`cql2-text`, the default, or `cql2-json`).
    package init(
        _ filter: String, encoding: CQL2Encoding = .text, limits: ClauseLimits = .default
    ) throws(QueryLanguageError) {
        switch encoding {
        case .text: try self.init(text: filter, limits: limits)
        case .json: try self.init(json: filter, limits: limits)
        }
    }

    /// Reads a CQL2 text filter (`filter-lang=cql2-text`).
    package init(text: String, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        try Self.checkLength(text.utf8.count, limits: limits)
        let bytes = Array(text.utf8)
        var parser = try Parser(bytes: bytes, dialect: .cql2Text, limits: limits)
        parser.readsCQL2Extensions = true
        let expression = try parser.parseClause()
        let split = try CQL2SpatialSplit.split(expression, predicates: parser.spatialPredicates) { _, offset in
            let column = SourceColumn.column(in: bytes, at: offset ?? 0)
            return (column, "at column \(column)")
        }
        try self.init(split.attributes, split.spatial, encoding: CQL2Conformance.text, sourceText: text)
    }

    /// Reads a CQL2-JSON filter (`filter-lang=cql2-json`) from its text.
    package init(json text: String, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        try Self.checkLength(text.utf8.count, limits: limits)
        let value: ParsedJSON
        do {
            value = try ParsedJSON(reading: text, limits: CQL2JSONReader.readingLimits(limits))
        } catch {
            throw QueryLanguageError(
                code: error.kind == .limitExceeded ? .nestingTooDeep : .invalidJSON,
                message: "the CQL2-JSON filter can't be read: \(error.message)")
        }
        try self.init(json: value, limits: limits)
    }

    /// Reads a CQL2-JSON filter already parsed (as the body of a POST).
    package init(json value: ParsedJSON, limits: ClauseLimits = .default) throws(QueryLanguageError) {
        var reader = CQL2JSONReader(limits: limits)
        let expression = try reader.condition(value, path: "filter", depth: 0)
        let paths = reader.spatialPaths
        let split = try CQL2SpatialSplit.split(expression, predicates: reader.spatialPredicates) { index, _ in
            (nil, "at \(paths.indices.contains(index) ? paths[index] : "filter")")
        }
        try self.init(split.attributes, split.spatial, encoding: CQL2Conformance.json, sourceText: nil)
    }

    private init(
        _ attributes: FilterExpression?, _ spatial: [CQL2SpatialPredicate], encoding: String, sourceText: String?
    ) throws(QueryLanguageError) {
        self.attributes = attributes.map { WhereClause(checkedExpression: $0, sourceText: sourceText) }
        self.spatialPredicates = spatial
        self.conformanceClasses = CQL2FilterConformance.classes(attributes, spatial, encoding: encoding)
    }

    /// The classes in `conformanceClasses` that `declared` lacks; empty when a server declaring `declared`
    /// supports the filter.
    package func missingConformanceClasses(declared: some Sequence<String>) -> [String] {
        let have = Set(declared)
        return conformanceClasses.filter { !have.contains($0) }
    }

    private static func checkLength(_ count: Int, limits: ClauseLimits) throws(QueryLanguageError) {
        guard count > limits.maxClauseBytes else { return }
        throw QueryLanguageError(
            code: .clauseTooLong,
            message: "the filter is \(count) bytes long; the limit is \(limits.maxClauseBytes) bytes. Use fewer values")
    }
}

/// The two encodings of a CQL2 filter, by their `filter-lang` values.
package enum CQL2Encoding: String, Hashable, Sendable, CaseIterable {
    case text = "cql2-text"
    case json = "cql2-json"

    /// The encoding a `filter-lang` parameter names; nil for anything else (answer 400 naming the two).
    package init?(filterLang: String) {
        self.init(rawValue: filterLang.lowercased())
    }
}
