import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// Where a where clause runs: as CQL2 at the server when its conformance proves support for every operator
/// the clause uses and every field is a queryable, else as Part 1 `name=value` parameters for the simple
/// equalities it can (on queryables, with `queryables-query-parameters`), and always, whatever was sent, in
/// the worker on every feature that comes back (``local``). A server that returns a feature the clause
/// does not select is caught there.
struct FilterPlan: Sendable {
    enum ServerPart: Sendable, Hashable {
        /// Nothing of the clause is sent.
        case none
        /// `filter` + `filter-lang`.
        case cql2(language: String, filter: String)
        /// Part 1 property parameters.
        case parameters([QueryParameter])
    }

    let server: ServerPart
    /// Whether the server was sent the whole clause (so a correct server returns only matches).
    let serverEvaluatesAll: Bool
    /// The clause compiled over ``fieldNames``; nil without a clause.
    let local: CompiledFilter?
    let fieldNames: [String]
    /// Fields the queryables declare as dates or date-times: their strings are compared as instants.
    let temporalFields: Set<String>
    /// The clause's fields the queryables do not declare (all of them without queryables): a name none of the
    /// features has either is a mistake, reported once the whole collection was read (``CheckedItemCollector``).
    var undeclaredFields: [String] = []

    static let none = FilterPlan(server: .none, serverEvaluatesAll: true, local: nil, fieldNames: [], temporalFields: [])

    static func plan(
        _ clause: WhereClause?, conformance: Conformance, queryables: Queryables?, layer: String,
        now: Int64 = WallClock.nowMilliseconds()
    ) throws(FeatureServiceError) -> FilterPlan {
        guard var clause else { return .none }
        if let declared = queryables?.properties.keys {
            // Property names are case-sensitive in OGC API; ArcGIS SQL's are not. Spell each field as the
            // queryables do (when one name matches without regard to case), so `st = 'CA'` can still be sent.
            var byLowercase: [String: [String]] = [:]
            for name in declared { byLowercase[name.lowercased(), default: []].append(name) }
            clause = clause.renamingFields { name in
                guard !declared.contains(name), let matches = byLowercase[name.lowercased()], matches.count == 1 else { return nil }
                return matches[0]
            }
        }
        var names: [String] = []
        for field in clause.referencedFields where !names.contains(field) { names.append(field) }
        let local: CompiledFilter
        do {
            local = try clause.compile(fieldNames: names, context: EvaluationContext(currentTimeMilliseconds: now))
        } catch {
            throw OGCFailure.invalidQuery(layer, "the where clause cannot be evaluated: \(error)")
        }
        let declared = queryables?.properties ?? [:]
        if let queryables, !queryables.allowsOthers {
            // The collection says these are all its properties: another name is a mistake, not an empty answer.
            let known = Set(declared.keys.map { $0.lowercased() })
            if let unknown = names.first(where: { !known.contains($0.lowercased()) }) {
                throw OGCFailure.invalidQuery(
                    layer, "the where clause names \"\(unknown)\", which is not a property of the collection (its "
                        + "queryables: \(queryables.names.joined(separator: ", ")))")
            }
        }
        let temporal = Set(names.filter { name in
            guard let format = declared[name]?.format else { return false }
            return format == "date" || format == "date-time"
        })
        let lowercasedDeclared = Set(declared.keys.map { $0.lowercased() })
        let undeclared = names.filter { !lowercasedDeclared.contains($0.lowercased()) }
        let plan = try choose(
            clause, names: names, local: local, declared: declared, temporal: temporal, conformance: conformance,
            queryables: queryables, now: now)
        var withFields = plan
        withFields.undeclaredFields = undeclared
        return withFields
    }

    /// What to send of the clause: all of it as CQL2, its simple equalities as parameters, or nothing.
    private static func choose(
        _ clause: WhereClause, names: [String], local: CompiledFilter, declared: [String: Queryables.Property],
        temporal: Set<String>, conformance: Conformance, queryables: Queryables?, now: Int64
    ) throws(FeatureServiceError) -> FilterPlan {
        let allQueryable = queryables != nil && names.allSatisfy { declared[$0] != nil }
        if allQueryable, let cql2 = cql2(clause, conformance: conformance, now: now) {
            return FilterPlan(server: cql2, serverEvaluatesAll: true, local: local, fieldNames: names, temporalFields: temporal)
        }
        if conformance.supportsQueryableParameters, queryables != nil {
            let (equalities, complete) = simpleEqualities(clause.expression)
            let sendable = equalities.filter { declared[$0.name] != nil }
            if !sendable.isEmpty {
                return FilterPlan(
                    server: .parameters(sendable), serverEvaluatesAll: complete && sendable.count == equalities.count,
                    local: local, fieldNames: names, temporalFields: temporal)
            }
        }
        return FilterPlan(server: .none, serverEvaluatesAll: false, local: local, fieldNames: names, temporalFields: temporal)
    }

    /// The clause as CQL2 in the best language the API proves it takes; nil when it proves none, or the
    /// clause needs a class it does not declare, or CQL2 cannot say it.
    private static func cql2(_ clause: WhereClause, conformance: Conformance, now: Int64) -> ServerPart? {
        let options = CQL2Options(currentTimeMilliseconds: now)
        guard let required = try? clause.cql2ConformanceClasses(options), conformance.declaresCQL2(required) else { return nil }
        for language in conformance.filterLanguages {
            switch language {
            case "cql2-text": if let text = try? clause.cql2Text(options) { return .cql2(language: language, filter: text) }
            case "cql2-json": if let json = try? clause.cql2JSON(options) { return .cql2(language: language, filter: json) }
            default: continue
            }
        }
        return nil
    }

    /// The `field = literal` terms of a clause that is one such term or an AND of terms, and whether they are
    /// the whole clause.
    static func simpleEqualities(_ expression: FilterExpression) -> ([QueryParameter], Bool) {
        let terms: [FilterExpression]
        if case .and(let all) = expression.node { terms = all } else { terms = [expression] }
        var parameters: [QueryParameter] = []
        for term in terms {
            guard case .comparison(.equal, let left, let right) = term.node else { continue }
            switch (left.node, right.node) {
            case (.field(let name), .literal(let literal)), (.literal(let literal), .field(let name)):
                if let value = parameterText(literal) { parameters.append(QueryParameter(name, value)) }
            default:
                continue
            }
        }
        return (parameters, parameters.count == terms.count)
    }

    private static func parameterText(_ literal: Literal) -> String? {
        switch literal {
        case .integer(let value): String(value)
        case .string(let value): value
        case .double, .date, .timestamp: nil
        }
    }

    /// Whether `properties` (a feature's) satisfy the clause; true without a clause.
    func matches(_ properties: [String: ParsedJSON]?) -> Bool {
        guard let local else { return true }
        return local.matches(Self.record(properties, fields: fieldNames, temporalFields: temporalFields))
    }

    /// A feature's values of `fields`, in that order, as the evaluator and the aggregations read them: each
    /// property by its exact name, else one spelt the same regardless of case; absent is null.
    static func record(_ properties: [String: ParsedJSON]?, fields: [String], temporalFields: Set<String>) -> [AttributeValue] {
        fields.map { name -> AttributeValue in
            let value = properties?[name] ?? properties.flatMap { members in
                members.first { $0.key.lowercased() == name.lowercased() }?.value
            }
            return attribute(value, temporal: temporalFields.contains(name))
        }
    }

    /// A GeoJSON property as the evaluator sees it: integral numbers as integers, booleans as 1 and 0,
    /// arrays and objects as their JSON text, date-time strings of temporal fields as instants.
    static func attribute(_ value: ParsedJSON?, temporal: Bool) -> AttributeValue {
        switch value {
        case nil, .null?: return .null
        case .bool(let flag)?: return .integer(flag ? 1 : 0)
        case .number(let number)?:
            if let integer = Int64(exactly: number) { return .integer(integer) }
            return .double(number)
        case .string(let text)?:
            if temporal, let instant = RFC3339.milliseconds(from: text) { return .date(instant) }
            return .string(text)
        case let other?:
            return .string(other.jsonText)
        }
    }
}

/// One query parameter, by name and value (encoded when the URL is built).
struct QueryParameter: Sendable, Hashable {
    var name: String
    var value: String

    init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}
