import FeatureGeometry
import FeatureService
import QueryLanguage

/// A feature-query request that passed every check of the contract: what the worker runs.
///
/// Defaults are applied (``taskId`` is the request id when the message gave none, outFields `["*"]`, ...),
/// the where clause is parsed (or the named query resolved), the geometry decoded and the deadline made
/// absolute, so nothing downstream reads the message again.
package struct QueryRequest: Sendable, Hashable {
    /// Names this request in its outcome.
    package var requestId: String
    /// The supersession key: a newer request with this task id replaces this one (unless it asks the same).
    package var taskId: String
    /// When the outcome stops being useful, in milliseconds since the epoch: the message's `deadline`, or
    /// `receivedAt + timeoutMs`; `nil` when the message set neither (the worker's own limit applies).
    var deadline: Int64?
    /// When the worker received the message, in milliseconds since the epoch.
    var receivedAt: Int64
    /// The layers to query, 1 to `maxTargets` (at most 16) targets, in the message's order.
    var targets: [QueryTarget]
    /// What to select and return.
    var query: QuerySpec
    /// The operator's credential the request picked by name (checked: it exists and covers every target);
    /// `nil` applies whatever credential covers each target by scope.
    var credential: String?
    /// How many targets the request has, for checks outside this module (the request fuzzer's oracle).
    package var targetCount: Int { targets.count }

    /// A request; ``RequestDecoder`` makes these from messages, tests and tools may build them directly.
    init(
        requestId: String, taskId: String? = nil, deadline: Int64? = nil, receivedAt: Int64, targets: [QueryTarget],
        query: QuerySpec, credential: String? = nil
    ) {
        self.requestId = requestId
        self.taskId = taskId ?? requestId
        self.deadline = deadline
        self.receivedAt = receivedAt
        self.targets = targets
        self.query = query
        self.credential = credential
    }

    /// The query for the feature-service seam, with the request's credential.
    var serviceQuery: ServiceQuery {
        var query = query.serviceQuery
        query.credential = credential
        return query
    }

    /// The targets as the feature-service seam takes them, in order; the engine behind the seam picks the
    /// protocol by each target's kind.
    var serviceTargets: [ServiceTarget] { targets.map(\.serviceTarget) }
}

/// One entry of a request's `targets`.
enum QueryTarget: Sendable, Hashable {
    /// An ArcGIS REST layer URL (`…/FeatureServer/0`), or a service URL (`…/MapServer`) with the sublayer ids
    /// to query (`nil`: every feature layer of the service). The URL has no query string or trailing slash.
    case arcgis(url: String, layers: [Int]?)
    /// An OGC API Features collection: the landing page URL and the collection id. The id is `nil` only in a
    /// `result: catalog` request, where the target means "browse the landing page" (every collection).
    case ogc(url: String, collection: String?)

    /// The target's URL.
    var url: String {
        switch self {
        case .arcgis(let url, _), .ogc(let url, _): url
        }
    }

    /// The target for the feature-service seam: its kind, URL and layers (sublayer ids as text, or the
    /// collection id; `nil` for a whole service or landing page).
    var serviceTarget: ServiceTarget {
        switch self {
        case .arcgis(let url, let layers): ServiceTarget(kind: .arcgis, url: url, layers: layers?.map(String.init))
        case .ogc(let url, let collection): ServiceTarget(kind: .ogc, url: url, layers: collection.map { [$0] })
        }
    }
}

/// The `query` object of a request, with defaults applied and every part parsed.
struct QuerySpec: Sendable, Hashable {
    /// Where the attribute filter came from.
    enum AttributeFilter: Sendable, Hashable {
        /// No `where` and no `namedWhere`: every feature.
        case all
        /// A `where` clause of the request's own.
        case clause(WhereClause)
        /// A `namedWhere`, resolved from the operator's catalog.
        case named(String, WhereClause)

        /// The clause to send, `nil` for every feature.
        var whereClause: WhereClause? {
            switch self {
            case .all: nil
            case .clause(let clause), .named(_, let clause): clause
            }
        }

        /// Clauses compare by meaning (``WhereClause/meaningKey``: field names in any case, `100000.0` as
        /// `100000`), so that two requests of a task that ask the same share one run however they spell it.
        static func == (lhs: AttributeFilter, rhs: AttributeFilter) -> Bool {
            switch (lhs, rhs) {
            case (.all, .all): true
            case (.clause(let a), .clause(let b)): a.meansSame(as: b)
            case (.named(let nameA, let a), .named(let nameB, let b)): nameA == nameB && a.meansSame(as: b)
            default: false
            }
        }

        func hash(into hasher: inout Hasher) {
            switch self {
            case .all: hasher.combine(0)
            case .clause(let clause): hasher.combine(1); hasher.combine(clause.meaningKey)
            case .named(let name, let clause): hasher.combine(2); hasher.combine(name); hasher.combine(clause.meaningKey)
            }
        }
    }

    /// What a query returns for each layer.
    enum ResultKind: String, Sendable, Hashable, CaseIterable {
        /// The selection: every matching object id (the default).
        case ids
        /// Only how many features match.
        case count
        /// The matching features as GeoJSON (with their ids).
        case features
        /// What each target offers to query: an OGC landing page's collections, an ArcGIS service's layers.
        /// Takes no filter and no output options (the decoder refuses them).
        case catalog
    }

    /// The attribute filter.
    var filter: AttributeFilter
    /// The visible extent as the spatial filter (its spatial reference defaults to WGS 84); `nil` for none.
    var extent: Envelope?
    /// Any geometry as the spatial filter; never set together with ``extent``.
    var geometry: Geometry?
    /// How ``extent`` or ``geometry`` relates to a feature to select it.
    var spatialRelationship: SpatialRelation
    /// Fields returned with features; `["*"]` for all.
    var outFields: [String]
    /// Whether features carry geometry.
    var returnGeometry: Bool
    /// The spatial reference to query features in; `nil` keeps the layer's.
    var outSpatialReference: SpatialReference?
    /// At most this many ids or features per layer; `nil` for all.
    var maxFeatures: Int?
    /// Ids, count, features or catalog.
    var result: ResultKind

    /// A query with the contract's defaults: every feature, ids only.
    init(
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
    var filterGeometry: Geometry? {
        if let extent { return .envelope(extent) }
        return geometry
    }

    /// The query for the feature-service seam. Features come back as GeoJSON, so in WGS 84 unless the request
    /// named another output spatial reference.
    var serviceQuery: ServiceQuery {
        let kind: ServiceQuery.ResultKind = switch result {
        case .ids: .ids
        case .count: .count
        case .features: .features
        case .catalog: .catalog
        }
        return ServiceQuery(
            whereClause: filter.whereClause, geometry: filterGeometry, spatialRelationship: spatialRelationship,
            outFields: outFields, returnGeometry: returnGeometry,
            outSpatialReference: outSpatialReference ?? (result == .features ? .wgs84 : nil),
            maxFeatures: maxFeatures, result: kind)
    }
}
