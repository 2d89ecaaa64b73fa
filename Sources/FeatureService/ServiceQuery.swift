package import FeatureGeometry
package import QueryLanguage

/// What to ask every layer of a request, in terms every protocol can render (ArcGIS SQL and parameters, CQL2
/// and `bbox`). Features always come back as GeoJSON, the form results carry.
package struct ServiceQuery: Sendable, Hashable {
    /// What a query returns for each layer.
    package enum ResultKind: String, Sendable, Hashable, CaseIterable {
        /// Every matching object id.
        case ids
        /// Only how many features match.
        case count
        /// The matching features as GeoJSON.
        case features
        /// What each target offers to query (collections, layers); the query's filters don't apply.
        case catalog
    }

    /// The attribute filter; `nil` for every feature.
    package var whereClause: WhereClause?
    /// The spatial filter with its spatial reference; `nil` for none.
    package var geometry: Geometry?
    package var spatialRelationship: SpatialRelation
    /// Fields returned with features; `["*"]` for all.
    package var outFields: [String]
    package var returnGeometry: Bool
    /// The spatial reference of returned geometries; `nil` keeps the layer's.
    package var outSpatialReference: SpatialReference?
    /// At most this many ids or features per layer; `nil` for all. The result budget may cut sooner.
    package var maxFeatures: Int?
    package var result: ResultKind
    /// The credential the request picked by name (its `credential` field); `nil` applies whatever covers each
    /// target by scope. Part of the query's identity: requests with different credentials never share results.
    package var credential: String?

    package init(
        whereClause: WhereClause? = nil, geometry: Geometry? = nil, spatialRelationship: SpatialRelation = .intersects,
        outFields: [String] = ["*"], returnGeometry: Bool = false, outSpatialReference: SpatialReference? = nil,
        maxFeatures: Int? = nil, result: ResultKind = .ids, credential: String? = nil
    ) {
        self.whereClause = whereClause
        self.geometry = geometry
        self.spatialRelationship = spatialRelationship
        self.outFields = outFields
        self.returnGeometry = returnGeometry
        self.outSpatialReference = outSpatialReference
        self.maxFeatures = maxFeatures
        self.result = result
        self.credential = credential
    }
}
