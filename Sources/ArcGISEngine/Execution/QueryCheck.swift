import FeatureGeometry
import QueryLanguage
import FeatureService

/// Checks a query against a layer before anything is sent: that the layer can be queried, that the where
/// clause names its fields with the right types, that `outFields` exist, and that a spatial filter is
/// usable. Every failure names the layer.
enum QueryCheck {
    /// `query` checked against `layer`, its where clause in the layer's terms.
    static func validated(_ query: ServiceQuery, for layer: LayerMetadata) throws(FeatureServiceError) -> ServiceQuery {
        var validated = query
        validated.whereClause = try check(query, for: layer).validated
        return validated
    }

    /// Checks `query` against `layer`; returns its where clause in the layer's terms with the clause's
    /// form-encoded SQL, from one lookup of the layer's ``PreparedClauses``: the request is then built without
    /// looking the clause up again, and without a copy of the query.
    static func check(_ query: ServiceQuery, for layer: LayerMetadata) throws(FeatureServiceError) -> CheckedClause {
        guard layer.supportsQuery else {
            throw FeatureServiceError(
                .unsupportedLayer,
                "\(layer.url) (\(layer.name)) does not support queries (capabilities: "
                    + "\(layer.capabilities.sorted().joined(separator: ",")))", layer: layer.url)
        }
        if let type = layer.type, !isQueryableType(type) {
            throw FeatureServiceError(
                .unsupportedLayer, "\(layer.url) (\(layer.name)) is a \(type), not a feature layer or table",
                layer: layer.url)
        }
        var checked = CheckedClause(validated: nil, encoded: nil)
        if let clause = query.whereClause {
            do {
                let prepared = try layer.preparedClauses.clauses.prepared(
                    clause, schema: layer.schema, timeReference: layer.dateFieldsTimeReference)
                checked = CheckedClause(validated: prepared.validated, encoded: prepared.encodedSQL)
            } catch {
                throw FeatureServiceError(
                    .invalidQuery, "the where clause does not fit \(layer.url) (\(layer.name)): \(error.message)",
                    layer: layer.url, details: [error.code.rawValue])
            }
        }
        try checkOutFields(query.outFields, layer: layer)
        if let geometry = query.geometry {
            guard layer.geometryType != nil else {
                throw FeatureServiceError(
                    .invalidQuery, "\(layer.url) (\(layer.name)) is a table; it cannot be queried with a geometry",
                    layer: layer.url)
            }
            guard let extent = geometry.extent, !geometry.isEmpty,
                extent.xmin.isFinite, extent.ymin.isFinite, extent.xmax.isFinite, extent.ymax.isFinite
            else {
                throw FeatureServiceError(.invalidQuery, "the query geometry for \(layer.url) is empty", layer: layer.url)
            }
        }
        if query.objectIds != nil || query.time != nil || !query.orderBy.isEmpty || query.result.isFeatureTable {
            try checkFeatureTable(query, for: layer)
        }
        if let max = query.maxFeatures, max < 0 {
            throw FeatureServiceError(.invalidQuery, "maxFeatures must not be negative (got \(max))", layer: layer.url)
        }
        return checked
    }

    /// Whether a layer of `type` is queried: a feature layer or a table, in any case (the usual spellings
    /// compared first, without lowercasing).
    private static func isQueryableType(_ type: String) -> Bool {
        type == "Feature Layer" || type == "Table" || ["feature layer", "table"].contains(type.lowercased())
    }

    private static func checkOutFields(_ names: [String], layer: LayerMetadata) throws(FeatureServiceError) {
        guard !names.isEmpty else {
            throw FeatureServiceError(.invalidQuery, "outFields is empty; use [\"*\"] for every field", layer: layer.url)
        }
        // `["*"]`, the usual list, names no field: no set of the layer's names to build.
        guard names.contains(where: { $0 != "*" }) else { return }
        let known = Set(layer.fields.map { $0.name.lowercased() })
        for name in names where name != "*" && !known.contains(name.lowercased()) {
            throw FeatureServiceError(
                .invalidQuery, "outFields names '\(name)', which \(layer.url) (\(layer.name)) does not have",
                layer: layer.url)
        }
    }
}

/// A query's where clause checked against one layer (``QueryCheck/check(_:for:)``): in the layer's terms,
/// and its form-encoded ArcGIS SQL, handed on to ``QueryParameters``.
struct CheckedClause: Sendable {
    /// The clause as ``WhereClause/validated(against:)`` gives it for the layer; nil: no clause (`1=1`).
    var validated: WhereClause?
    /// The `where` field's form-encoded value; nil without a clause, or when not known (it is then written
    /// from ``validated``).
    var encoded: [UInt8]?
}
