import FeatureGeometry

/// The parameters of `queryRelatedRecords`, read and checked against the origin layer (objectIds, the
/// relationship, its capabilities) and the related layer (outFields, definitionExpression, orderByFields).
///
/// orderByFields and returnCountOnly need the origin's `supportsAdvancedQueryRelated`, resultOffset and
/// resultRecordCount its `supportsQueryRelatedPagination`; without them each is refused with an ArcGIS 400.
struct RelatedQueryParameters: Sendable {
    /// Origin OBJECTIDs, ascending, without duplicates (ids of no feature included: they form no group).
    let objectIDs: [Int]
    /// Positions of the related fields to return; the related OBJECTID first unless asked for elsewhere.
    let outFields: [Int]
    let predicate: WherePredicate?
    let order: SortOrder?
    let returnCountOnly: Bool
    let returnGeometry: Bool
    let outSR: SpatialReference
    let offset: Int?
    let recordCount: Int?

    /// The relationship `relationshipId` names on `layer`.
    static func relationship(_ parameters: RequestParameters, on layer: SampleLayer) throws(ArcGISServiceError) -> SampleRelationship {
        guard let text = parameters["relationshipId"] else { throw .invalidRequest("'relationshipId' must be specified") }
        guard let id = Int(text.trimmingSpaces()), let relationship = SampleRelationship.find(id, on: layer) else {
            throw ArcGISServiceError(
                code: 400, message: "Invalid relationship id",
                details: ["The layer has no relationship with id '\(text.prefix(20))'."])
        }
        return relationship
    }

    init(_ parameters: RequestParameters, origin: PublishedLayer, related: LayerDefinition) throws(ArcGISServiceError) {
        guard let ids = try LayerQueryParameters.objectIDs(parameters["objectIds"]), !ids.isEmpty else {
            throw .invalidRequest("'objectIds' must be specified")
        }
        objectIDs = Array(Set(ids)).sorted()
        if let text = parameters["outFields"] {
            var fields = try LayerQueryParameters.outFields(text, layer: related)
            if !fields.contains(0) { fields.insert(0, at: 0) }
            outFields = fields
        } else {
            outFields = Array(related.fields.indices)
        }
        predicate = try parameters["definitionExpression"].map { (text) throws(ArcGISServiceError) in
            try WherePredicate(text, layer: related, parameter: "definitionExpression")
        }
        returnGeometry = try parameters.bool("returnGeometry", default: true)
        outSR = try parameters.spatialReference("outSR") ?? related.spatialReference
        guard outSR.isWGS84 || outSR.isWebMercator else {
            throw .invalidRequest("'outSR' \(outSR.wkid) is not supported; use 4326 or 102100 (3857)")
        }
        returnCountOnly = try parameters.bool("returnCountOnly", default: false)
        let orderText = parameters["orderByFields"]
        if !origin.supportsAdvancedQueryRelated {
            if returnCountOnly { throw LayerQueryOptions.refusal("returnCountOnly", flag: "supportsAdvancedQueryRelated") }
            if orderText != nil { throw LayerQueryOptions.refusal("orderByFields", flag: "supportsAdvancedQueryRelated") }
        }
        order = try orderText.map { (text) throws(ArcGISServiceError) in try SortOrder(text, layer: related) }
        offset = try parameters.integer("resultOffset", minimum: 0)
        recordCount = try parameters.integer("resultRecordCount", minimum: 1)
        if !origin.supportsQueryRelatedPagination, offset != nil || recordCount != nil {
            throw LayerQueryOptions.refusal("resultOffset/resultRecordCount", flag: "supportsQueryRelatedPagination")
        }
    }
}
