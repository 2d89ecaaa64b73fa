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
    /// How the extent or geometry relates to a selected feature (`intersects` unless given); only with either.
    public var spatialRelationship: SpatialRelationship?
    /// The fields returned with features (`["*"]` unless given); required for `distinct`.
    public var outFields: [String]?
    /// Whether features carry geometry (`false` unless given).
    public var returnGeometry: Bool?
    /// The wkid features are queried in; result features are GeoJSON in WGS 84 whatever it says.
    public var outSpatialReference: Int?
    /// At most this many ids or features per layer (the layer is then `complete: false`).
    public var maxFeatures: Int?
    /// What the outcome holds per layer (`ids` unless given).
    public var result: ResultKind?
    /// Only these features (1.2).
    public var objectIds: [FeatureID]?
    /// Only features of this time window (1.2).
    public var time: TimeWindow?
    /// The order of ids, features or statistics rows (1.2).
    public var orderBy: [Order]?
    /// The statistics of ``ResultKind/statistics`` (1.2).
    public var statistics: [Statistic]?
    /// The fields statistics are grouped by (1.2).
    public var groupBy: [String]?
    /// The relationship to follow with ``ResultKind/related`` (1.2).
    public var relationship: Relationship?
    /// A where clause on the related records (1.2).
    public var relatedWhere: String?
    /// The related records' fields (1.2).
    public var relatedOutFields: [String]?
    /// The order of each feature's related records (1.2).
    public var relatedOrderBy: [Order]?

    /// A query; every member optional, as in the contract.
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
