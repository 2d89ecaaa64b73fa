package import FeatureGeometry
package import FeatureService
package import QueryLanguage

/// The `query` object of a request, with defaults applied and every part parsed.
package struct QuerySpec: Sendable, Hashable {
    /// Where the attribute filter came from.
    package enum AttributeFilter: Sendable, Hashable {
        /// No `where` and no `namedWhere`: every feature.
        case all
        /// A `where` clause of the request's own.
        case clause(WhereClause)
        /// A `namedWhere`, resolved from the operator's catalog.
        case named(String, WhereClause)

        /// The clause to send, `nil` for every feature.
        package var whereClause: WhereClause? {
            switch self {
            case .all: nil
            case .clause(let clause), .named(_, let clause): clause
            }
        }

        /// Clauses compare by meaning (``WhereClause/meaningKey``: field names in any case, `100000.0` as
        /// `100000`), so that two requests of a task that ask the same share one run however they spell it.
        package static func == (lhs: AttributeFilter, rhs: AttributeFilter) -> Bool {
            switch (lhs, rhs) {
            case (.all, .all): true
            case (.clause(let a), .clause(let b)): a.meansSame(as: b)
            case (.named(let nameA, let a), .named(let nameB, let b)): nameA == nameB && a.meansSame(as: b)
            default: false
            }
        }

        package func hash(into hasher: inout Hasher) {
            switch self {
            case .all: hasher.combine(0)
            case .clause(let clause): hasher.combine(1); hasher.combine(clause.meaningKey)
            case .named(let name, let clause): hasher.combine(2); hasher.combine(name); hasher.combine(clause.meaningKey)
            }
        }
    }

    /// What a query returns for each layer: the seam's kinds, which are the contract's `result` values.
    package typealias ResultKind = ServiceQuery.ResultKind

    /// The attribute filter.
    package var filter: AttributeFilter
    /// The visible extent as the spatial filter (its spatial reference defaults to WGS 84); `nil` for none.
    package var extent: Envelope?
    /// Any geometry as the spatial filter; never set together with ``extent``.
    package var geometry: Geometry?
    /// How ``extent`` or ``geometry`` relates to a feature to select it.
    package var spatialRelationship: SpatialRelation
    /// Fields returned with features; `["*"]` for all.
    package var outFields: [String]
    /// Whether features carry geometry.
    package var returnGeometry: Bool
    /// The spatial reference to query features in; `nil` keeps the layer's.
    package var outSpatialReference: SpatialReference?
    /// At most this many ids or features per layer; `nil` for all.
    package var maxFeatures: Int?
    /// Ids, count, features, catalog, statistics, extent, distinct, related or attachments.
    package var result: ResultKind
    /// Only these features (`objectIds`: ArcGIS object ids or OGC feature ids), in the request's order;
    /// `nil` for any. ANDed with the other filters.
    package var objectIds: [FeatureID]?
    /// Only features in this time window (`time`); `nil` for any time.
    package var time: TimeWindow?
    /// The order of ids, features or statistics rows (`orderBy`); empty for the service's order.
    package var orderBy: [OrderTerm] = []
    /// What `result: statistics` computes, each with its (default or given) name.
    package var statistics: [StatisticDefinition] = []
    /// The fields statistics are grouped by, in the request's order.
    package var groupBy: [String] = []
    /// What `result: related` follows and asks of the related table; `nil` for other results.
    package var related: RelatedSpec?

    /// A query with the contract's defaults: every feature, ids only.
    package init(
        filter: AttributeFilter = .all, extent: Envelope? = nil, geometry: Geometry? = nil,
        spatialRelationship: SpatialRelation = .intersects, outFields: [String] = ["*"], returnGeometry: Bool = false,
        outSpatialReference: SpatialReference? = nil, maxFeatures: Int? = nil, result: ResultKind = .ids
    ) {
        self.filter = filter
        self.extent = extent
        self.geometry = geometry
        self.spatialRelationship = spatialRelationship
        self.outFields = outFields
        self.returnGeometry = returnGeometry
        self.outSpatialReference = outSpatialReference
        self.maxFeatures = maxFeatures
        self.result = result
    }

    /// The spatial filter: the extent as an envelope, or the geometry; `nil` for none.
    package var filterGeometry: Geometry? {
        if let extent { return .envelope(extent) }
        return geometry
    }

    /// The query for the feature-service seam. Features and related records come back with GeoJSON
    /// geometries, so in WGS 84 unless the request named another output spatial reference.
    package var serviceQuery: ServiceQuery {
        return ServiceQuery(
            whereClause: filter.whereClause, geometry: filterGeometry, spatialRelationship: spatialRelationship,
            outFields: outFields, returnGeometry: returnGeometry,
            outSpatialReference: outSpatialReference ?? (result.hasGeoJSONGeometry ? .wgs84 : nil),
            maxFeatures: maxFeatures, result: result, objectIds: objectIds, time: time, orderBy: orderBy,
            statistics: statistics, groupBy: groupBy, related: related?.query)
    }
}

extension ServiceQuery.ResultKind {
    /// Whether `orderBy` means something for this result: ids, features and statistics rows have an order; a
    /// count, an extent, a distinct list and a catalog do not.
    package var isOrderable: Bool { self == .ids || self == .features || self == .statistics }

    /// Whether the result carries geometries, as GeoJSON in WGS 84: features, and related records (with
    /// `returnGeometry`, when the related table has geometry).
    package var hasGeoJSONGeometry: Bool { self == .features || self == .related }
}
