import FeatureQuerySupport
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

    /// The query's members, behind one reference (``SharedValue``): a query is copied at each step from the
    /// request to the engine, each layer's run and its requests, and such a copy is one retain where a copy of
    /// the members was one per string, array and expression in them. A change to a copy that shares its reference
    /// makes a new one; queries change only while they are made and when an engine derives a layer's variant of one.
    private var members: SharedValue<Members>

    /// The attribute filter; `nil` for every feature.
    package var whereClause: WhereClause? {
        get { members.value.whereClause }
        set { members.change { $0.whereClause = newValue } }
    }
    /// The spatial filter with its spatial reference; `nil` for none.
    package var geometry: Geometry? {
        get { members.value.geometry }
        set { members.change { $0.geometry = newValue } }
    }
    package var spatialRelationship: SpatialRelation {
        get { members.value.spatialRelationship }
        set { members.change { $0.spatialRelationship = newValue } }
    }
    /// Fields returned with features; `["*"]` for all.
    package var outFields: [String] {
        get { members.value.outFields }
        set { members.change { $0.outFields = newValue } }
    }
    package var returnGeometry: Bool {
        get { members.value.returnGeometry }
        set { members.change { $0.returnGeometry = newValue } }
    }
    /// The spatial reference of returned geometries; `nil` keeps the layer's.
    package var outSpatialReference: SpatialReference? {
        get { members.value.outSpatialReference }
        set { members.change { $0.outSpatialReference = newValue } }
    }
    /// At most this many ids or features per layer; `nil` for all. The result budget may cut sooner.
    package var maxFeatures: Int? {
        get { members.value.maxFeatures }
        set { members.change { $0.maxFeatures = newValue } }
    }
    package var result: ResultKind {
        get { members.value.result }
        set { members.change { $0.result = newValue } }
    }
    /// The credential the request picked by name (its `credential` field); `nil` applies whatever covers each
    /// target by scope. Part of the query's identity: requests with different credentials never share results.
    package var credential: String? {
        get { members.value.credential }
        set { members.change { $0.credential = newValue } }
    }
    /// Only these features (ArcGIS object ids, OGC feature ids), ANDed with the other filters; `nil` for any.
    package var objectIds: [FeatureID]? {
        get { members.value.objectIds }
        set { members.change { $0.objectIds = newValue } }
    }
    /// Only features in this time window; `nil` for any time.
    package var time: TimeWindow? {
        get { members.value.time }
        set { members.change { $0.time = newValue } }
    }
    /// The order of ids, features or statistics rows; empty for the service's order.
    package var orderBy: [OrderTerm] {
        get { members.value.orderBy }
        set { members.change { $0.orderBy = newValue } }
    }
    /// What `result: statistics` computes, and the fields it groups by.
    package var statistics: [StatisticDefinition] {
        get { members.value.statistics }
        set { members.change { $0.statistics = newValue } }
    }
    package var groupBy: [String] {
        get { members.value.groupBy }
        set { members.change { $0.groupBy = newValue } }
    }
    /// What `result: related` follows and asks of the related table; `nil` for other results.
    package var related: RelatedQuery? {
        get { members.value.related }
        set { members.change { $0.related = newValue } }
    }

    package init(
        whereClause: WhereClause? = nil, geometry: Geometry? = nil, spatialRelationship: SpatialRelation = .intersects,
        outFields: [String] = ["*"], returnGeometry: Bool = false, outSpatialReference: SpatialReference? = nil,
        maxFeatures: Int? = nil, result: ResultKind = .ids, credential: String? = nil,
        objectIds: [FeatureID]? = nil, time: TimeWindow? = nil, orderBy: [OrderTerm] = [],
        statistics: [StatisticDefinition] = [], groupBy: [String] = [], related: RelatedQuery? = nil
    ) {
        members = SharedValue(Members(
            whereClause: whereClause, geometry: geometry, spatialRelationship: spatialRelationship, outFields: outFields,
            returnGeometry: returnGeometry, outSpatialReference: outSpatialReference, maxFeatures: maxFeatures,
            result: result, credential: credential, objectIds: objectIds, time: time, orderBy: orderBy,
            statistics: statistics, groupBy: groupBy, related: related))
    }

    private struct Members: Sendable, Hashable {
        var whereClause: WhereClause?
        var geometry: Geometry?
        var spatialRelationship: SpatialRelation
        var outFields: [String]
        var returnGeometry: Bool
        var outSpatialReference: SpatialReference?
        var maxFeatures: Int?
        var result: ResultKind
        var credential: String?
        var objectIds: [FeatureID]?
        var time: TimeWindow?
        var orderBy: [OrderTerm]
        var statistics: [StatisticDefinition]
        var groupBy: [String]
        var related: RelatedQuery?
    }
}
