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
        /// ``ServiceQuery/statistics`` over the selection, per ``ServiceQuery/groupBy`` group.
        case statistics
        /// The selection's extent and count.
        case extent
        /// The distinct combinations of ``ServiceQuery/outFields`` in the selection.
        case distinct
        /// The records related to the selection through ``ServiceQuery/related``'s relationship.
        case related
        /// The selection's attachments (id, name, type, size, keywords, URL), per feature.
        case attachments

        /// Whether the result is one a feature table computes over the selection (statistics, extent,
        /// distinct values) rather than the selection itself.
        package var isFeatureTable: Bool { self == .statistics || self == .extent || self == .distinct }
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
    /// Only these features (ArcGIS object ids, OGC feature ids), ANDed with the other filters; `nil` for any.
    package var objectIds: [FeatureID]?
    /// Only features in this time window; `nil` for any time.
    package var time: TimeWindow?
    /// The order of ids, features or statistics rows; empty for the service's order.
    package var orderBy: [OrderTerm]
    /// What `result: statistics` computes, and the fields it groups by.
    package var statistics: [StatisticDefinition]
    package var groupBy: [String]
    /// What `result: related` follows and asks of the related table; `nil` for other results.
    package var related: RelatedQuery?

    package init(
        whereClause: WhereClause? = nil, geometry: Geometry? = nil, spatialRelationship: SpatialRelation = .intersects,
        outFields: [String] = ["*"], returnGeometry: Bool = false, outSpatialReference: SpatialReference? = nil,
        maxFeatures: Int? = nil, result: ResultKind = .ids, credential: String? = nil,
        objectIds: [FeatureID]? = nil, time: TimeWindow? = nil, orderBy: [OrderTerm] = [],
        statistics: [StatisticDefinition] = [], groupBy: [String] = [], related: RelatedQuery? = nil
    ) {
        self.related = related
        self.objectIds = objectIds
        self.time = time
        self.orderBy = orderBy
        self.statistics = statistics
        self.groupBy = groupBy
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
