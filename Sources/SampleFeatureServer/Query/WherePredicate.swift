import QueryLanguage

/// A where clause ready to test features: parsed, validated against the layer, compiled, with the
/// positions of the fields it reads so that records are filled with those alone.
struct WherePredicate: Sendable {
    let filter: CompiledFilter
    /// Positions (in layer field order) of the fields the clause reads.
    let fields: [Int]
    /// The clause's value when it reads no field (`1=1`, `1=0`): evaluated once.
    let constant: Bool?
    /// The clause in normalized ArcGIS SQL (part of the cache key).
    let normalized: String
    /// Fields (by position) the clause requires to be one of a few strings: `F = 'x'` or `F IN ('x', 'y')`,
    /// alone or as a term of a top-level AND. A store with an index on such a field narrows the candidates
    /// with it (the clause is still applied to them).
    let requiredStrings: [Int: Set<String>]
    private let fieldCount: Int

    /// Reads `text` for `layer`. Syntax and validation failures become ArcGIS 400 errors whose details
    /// carry the query language's message. With `pacificDateFields` (the `pacific-date-fields` quirk) date
    /// literals compared with date fields are Pacific wall time, as a layer with that `dateFieldsTimeReference`
    /// reads them: they are moved to UTC, the zone the stored values are in.
    /// `parameter` names the clause in the error (`where`, or `definitionExpression` for the related and
    /// attachment queries).
    init(
        _ text: String, layer: LayerDefinition, pacificDateFields: Bool = false, parameter: String = "where"
    ) throws(ArcGISServiceError) {
        var clause: WhereClause
        do {
            clause = try WhereClause(text).validated(against: layer.schema)
            if pacificDateFields {
                clause = try clause.shiftingDateLiterals(schema: layer.schema, PacificTime.utc(ofWallTime:))
            }
            try self.init(validated: clause, fields: layer.fields)
        } catch {
            throw .invalidRequest("'\(parameter)' parameter is invalid: \(error.message)")
        }
    }

    /// Compiles a clause already validated against `fields` (the OGC face's filters, which arrive as CQL2).
    init(validated clause: WhereClause, fields: [FieldDefinition]) throws(QueryLanguageError) {
        let compiled = try clause.compile(fieldNames: fields.map(\.name))
        filter = compiled
        normalized = clause.arcGISSQL
        fieldCount = fields.count
        var positions: [Int] = []
        for name in clause.referencedFields {
            let wanted = name.lowercased()
            if let position = fields.firstIndex(where: { $0.name.lowercased() == wanted }), !positions.contains(position) {
                positions.append(position)
            }
        }
        self.fields = positions
        requiredStrings = Self.requiredStrings(clause.expression, fields: fields)
        constant = positions.isEmpty ? compiled.matches(Array(repeating: .null, count: fields.count)) : nil
    }

    private static func requiredStrings(_ expression: FilterExpression, fields: [FieldDefinition]) -> [Int: Set<String>] {
        var result: [Int: Set<String>] = [:]
        let terms: [FilterExpression]
        if case .and(let all) = expression.node { terms = all } else { terms = [expression] }
        for term in terms {
            var name: String?
            var values: [FilterExpression] = []
            switch term.node {
            case .comparison(.equal, let left, let right):
                if case .field(let field) = left.node { (name, values) = (field, [right]) }
                if case .field(let field) = right.node { (name, values) = (field, [left]) }
            case .inList(let value, let items, negated: false):
                if case .field(let field) = value.node { (name, values) = (field, items) }
            default:
                break
            }
            var strings: Set<String> = []
            for value in values {
                guard case .literal(.string(let text)) = value.node else { name = nil; break }
                strings.insert(text)
            }
            guard let wanted = name?.lowercased(), let position = fields.firstIndex(where: { $0.name.lowercased() == wanted }) else { continue }
            result[position] = result[position].map { $0.intersection(strings) } ?? strings
        }
        return result
    }

    /// A reusable record: one value per field, all NULL.
    func makeRecord() -> [AttributeValue] { Array(repeating: .null, count: fieldCount) }

    /// Whether feature `index` of `source` matches; `record` is scratch space from ``makeRecord()``.
    @inline(__always)
    func matches(_ source: FeatureSource, _ index: Int, record: inout [AttributeValue]) -> Bool {
        if let constant { return constant }
        for field in fields { record[field] = source.value(field, index) }
        return filter.matches(record)
    }
}
