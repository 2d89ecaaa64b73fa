import FeatureService
import QueryLanguage

/// What `result: related` follows from one origin layer, resolved and checked before any record is asked
/// for: the relationship (by name or id, from the origin's metadata), the related table's metadata, the
/// related where clause checked against the table's fields, and the fields each record carries.
struct RelatedTarget: Sendable {
    /// The origin layer's entry for the relationship (its `keyField` is the origin's key).
    let relationship: LayerRelationship
    let table: LayerMetadata
    /// `relatedWhere`, checked against ``table``.
    let clause: CheckedClause
    /// The related order; empty for the related table's object id order.
    let orderBy: [OrderTerm]
    /// The fields records carry, in the table's order (its object id field always among them).
    let outputFields: [String]
    /// The fields asked of the service: ``outputFields`` and the order's fields.
    let requestedFields: [String]
    /// The related table's key field for this relationship (its own `relationships` entry), for the fallback
    /// that queries the table by key; nil when the table does not say.
    let relatedKeyField: String?
    /// Whether records carry geometry: asked for, and the related side is a layer, not a table.
    let returnsGeometry: Bool

    /// Resolves `reference` among `origin`'s relationships: by name ignoring case, or by id. An unknown one is
    /// `invalid_query` listing what the layer offers (ids differ between deployments of one service, so a
    /// caller who guessed an id learns the names).
    static func relationship(_ reference: RelationshipReference, of origin: LayerMetadata) throws(FeatureServiceError) -> LayerRelationship {
        let found: LayerRelationship? =
            switch reference {
            case .name(let name): origin.relationships.first { $0.name.caseInsensitiveEquals(name) }
            case .id(let id): origin.relationships.first { $0.id == id }
            }
        if let found { return found }
        let offered =
            origin.relationships.isEmpty
            ? "it advertises no relationships"
            : "its relationships are " + origin.relationships.map { "\"\($0.name)\" (id \($0.id))" }.joined(separator: ", ")
        throw FeatureServiceError(
            .invalidQuery, "\(origin.url) (\(origin.name)) has no \(reference); \(offered)", layer: origin.url,
            details: origin.relationships.map { "\($0.id): \($0.name)" })
    }

    /// The target for `related` from `origin` to `table` (whose metadata the caller loaded from the
    /// relationship's `relatedTableId`). The related where clause, fields and order are checked against the
    /// table as a query's are against its layer.
    init(
        _ related: RelatedQuery, relationship: LayerRelationship, origin: LayerMetadata, table: LayerMetadata,
        returnGeometry: Bool
    ) throws(FeatureServiceError) {
        let check = ServiceQuery(
            whereClause: related.whereClause, outFields: related.outFields, result: .features, orderBy: related.orderBy)
        clause = try QueryCheck.check(check, for: table)
        self.relationship = relationship
        self.table = table
        orderBy = related.orderBy
        let all = related.outFields.contains("*")
        outputFields = table.fields.map(\.name).filter { name in
            all || name.caseInsensitiveEquals(table.objectIdField)
                || related.outFields.contains { $0.caseInsensitiveEquals(name) }
        }
        var requested = outputFields
        for term in related.orderBy where !requested.contains(where: { $0.caseInsensitiveEquals(term.field) }) {
            requested.append(term.field)
        }
        requestedFields = requested
        relatedKeyField = table.relationships.first { $0.id == relationship.id && $0.relatedTableId == origin.id }?.keyField
            ?? table.relationships.first { $0.id == relationship.id }?.keyField
        returnsGeometry = returnGeometry && table.geometryType != nil
    }
}
