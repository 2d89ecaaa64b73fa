package import FeatureQuerySupport
package import FeatureService

/// The members of `result: related` (contract 1.2): `relationship`, `relatedWhere`, `relatedOutFields` and
/// `relatedOrderBy`. They shape the related table's records, so with any other result they are a mistake (the
/// producer meant related records) and are refused at their path rather than ignored.
extension RequestDecoder {
    package static let relatedFields = ["relationship", "relatedWhere", "relatedOutFields", "relatedOrderBy"]

    /// Reads the related members into `spec`, whose `result` is already known: `relationship` is required with
    /// `result: related`, and every related member is refused with another result.
    package func readRelated(_ reader: RequestFieldReader, into spec: inout QuerySpec) throws(ContractError) {
        guard spec.result == .related else {
            for name in Self.relatedFields where reader.has(name) {
                throw ContractError.at(
                    reader.childPath(name), .invalidValue,
                    "belongs to result: related, and this query's result is \(spec.result.rawValue); drop \(name) or "
                        + "ask for related")
            }
            return
        }
        let relationship = try Self.readRelationship(
            try reader.required("relationship"), path: reader.childPath("relationship"))
        var related = QuerySpec.RelatedSpec(relationship: relationship)
        if let text = try reader.string("relatedWhere") {
            related.filter = .clause(try freeClause(text, path: reader.childPath("relatedWhere")))
        }
        if let fields = try reader.array("relatedOutFields") {
            related.outFields = try Self.readOutFields(
                fields, path: reader.childPath("relatedOutFields"), member: "relatedOutFields")
        }
        if let items = try reader.array("relatedOrderBy") {
            related.orderBy = try Self.readOrderBy(
                items, path: reader.childPath("relatedOrderBy"),
                omitted: "omit relatedOrderBy for the related table's object id order")
        }
        spec.related = related
    }

    /// `relationship`: `{"name": N}` (1 to 128 characters) or `{"id": I}` (I ≥ 0), exactly one of the two. A
    /// name is what a producer should prefer: ids differ between deployments of a service, names do not.
    package static func readRelationship(_ value: ParsedJSON, path: String) throws(ContractError) -> RelationshipReference {
        let reader = try RequestFieldReader(value, path: path)
        try reader.rejectUnknown(allowed: ["name", "id"])
        let name = try reader.string("name", length: 1...128)
        let id = try reader.integer("id", in: 0...2_147_483_647)
        switch (name, id) {
        case (let name?, nil):
            return .name(name)
        case (nil, let id?):
            return .id(Int(id))
        case (.some, .some):
            throw ContractError.at(
                reader.childPath("id"), .invalidValue,
                "give the relationship's name or its id, not both (a name is safer: ids differ between deployments)")
        case (nil, nil):
            throw ContractError.at(
                path, .missingField,
                "names no relationship; give {\"name\": N} or {\"id\": I} as the layer's relationships list them "
                    + "(result: catalog shows them)")
        }
    }
}
