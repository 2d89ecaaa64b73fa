/// What a job selects and returns: the contract's `query` object, every member of version 1.2.
///
/// `Query()` selects every feature and returns ids, as `{}` does. Members left `nil` take the worker's defaults.
public struct Query: Sendable, Hashable {
    /// An ArcGIS SQL where clause; not together with ``namedWhere``.
    public var `where`: String?
    /// The name of an operator-configured clause.
    public var namedWhere: String?
    /// A box to select in; not together with ``geometry``.
    public var extent: Extent?
    /// A GeoJSON or Esri JSON geometry to select with, as JSON text (passed on as written).
    public var geometry: String?
    public var spatialRelationship: SpatialRelationship?
    public var outFields: [String]?
    public var returnGeometry: Bool?
    public var outSpatialReference: Int?
    public var maxFeatures: Int?
    public var result: ResultKind?
    /// Only these features (1.2).
    public var objectIds: [FeatureID]?
    /// Only features of this time window (1.2).
    public var time: TimeWindow?
    public var orderBy: [Order]?
    public var statistics: [Statistic]?
    public var groupBy: [String]?
    /// The relationship to follow with ``ResultKind/related`` (1.2).
    public var relationship: Relationship?
    public var relatedWhere: String?
    public var relatedOutFields: [String]?
    public var relatedOrderBy: [Order]?

    public init(
        where clause: String? = nil, namedWhere: String? = nil, extent: Extent? = nil, geometry: String? = nil,
        spatialRelationship: SpatialRelationship? = nil, outFields: [String]? = nil, returnGeometry: Bool? = nil,
        outSpatialReference: Int? = nil, maxFeatures: Int? = nil, result: ResultKind? = nil,
        objectIds: [FeatureID]? = nil, time: TimeWindow? = nil, orderBy: [Order]? = nil,
        statistics: [Statistic]? = nil, groupBy: [String]? = nil, relationship: Relationship? = nil,
        relatedWhere: String? = nil, relatedOutFields: [String]? = nil, relatedOrderBy: [Order]? = nil
    ) {
        self.where = clause
        self.namedWhere = namedWhere
        self.extent = extent
        self.geometry = geometry
        self.spatialRelationship = spatialRelationship
        self.outFields = outFields
        self.returnGeometry = returnGeometry
        self.outSpatialReference = outSpatialReference
        self.maxFeatures = maxFeatures
        self.result = result
        self.objectIds = objectIds
        self.time = time
        self.orderBy = orderBy
        self.statistics = statistics
        self.groupBy = groupBy
        self.relationship = relationship
        self.relatedWhere = relatedWhere
        self.relatedOutFields = relatedOutFields
        self.relatedOrderBy = relatedOrderBy
    }
}
