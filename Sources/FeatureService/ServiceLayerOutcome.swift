import FeatureQuerySupport
package import FeatureGeometry

/// What a layer selected, by the query's result kind: one case, so nobody re-reads three optionals to find
/// out which one the engine filled.
package enum LayerSelection: Sendable {
    /// `result: count`: only the count (``ServiceLayerResult/count``).
    case countOnly
    /// `result: ids` of an ArcGIS layer: the selection, ascending.
    case objectIds([Int64])
    /// `result: ids` of an OGC collection: the features' ids as the server gave them, in arrival order after
    /// deduplication; `nil` for a feature without an id (kept, never deduplicated).
    case featureIds([FeatureID?])
    /// `result: features`: the features as GeoJSON (and so their ids).
    case features(GeoJSONFeatureList)
    /// `result: catalog`: what the target offers to query (an OGC landing page's collections, an ArcGIS
    /// service's layers). One outcome per target.
    case catalog([CatalogEntry])
    /// `result: statistics`: one row per group (one row with an empty group without `groupBy`), in the
    /// query's `orderBy` when it has one.
    case statistics([StatisticsRow])
    /// `result: extent`: the selection's extent, `nil` for an empty selection (the count is the result's).
    case extent(Envelope?)
    /// `result: distinct`: the distinct combinations of the query's `outFields` (null is a value).
    case distinct([[NamedValue]])
    /// `result: related`: the related table and each origin's records, in origin object id order.
    case related(RelatedSelection)
    /// `result: attachments`: each selected feature's attachments, in object id order (features without one
    /// omitted).
    case attachments([AttachmentGroup])
    /// `result: features` or `ids` written to the object store (``ResultStore``): where the object is and what
    /// it holds, instead of the selection itself.
    case stored(StoredSelection)

    /// How many ids, features or catalog entries the selection holds (0 for a count).
    package var itemCount: Int {
        switch self {
        case .countOnly: 0
        case .objectIds(let ids): ids.count
        case .featureIds(let ids): ids.count
        case .features(let features): features.count
        case .catalog(let entries): entries.count
        case .statistics(let rows): rows.count
        case .extent: 0
        case .distinct(let rows): rows.count
        case .related(let selection): selection.recordCount
        case .attachments(let groups): groups.reduce(0) { $0 + $1.attachments.count }
        case .stored(let stored): stored.count
        }
    }
}

/// Where a layer's filter (attributes and geometry) was evaluated.
package enum FilterSite: String, Sendable, Hashable {
    /// The service filtered, and every feature it returned matched when checked again.
    case server
    /// The worker filtered what the service returned: the service could not express the filter, or ignored it.
    case client
}

/// Why a layer's selection holds fewer features than match: a result marked incomplete says which.
package struct IncompleteReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package let rawValue: String
    package init(rawValue: String) { self.rawValue = rawValue }
    package var description: String { rawValue }

    /// The request's `maxFeatures` cut the selection.
    package static let maxFeatures = IncompleteReason(rawValue: "max_features")
    /// The request's result budget (bytes) ran out.
    package static let resultBudget = IncompleteReason(rawValue: "result_budget")
    /// The service's own count (`numberMatched`) disagrees with what arrived.
    package static let countMismatch = IncompleteReason(rawValue: "count_mismatch")
    /// Rows were lost while paging (the service changed under the query, or pages overlapped).
    package static let rowsLost = IncompleteReason(rawValue: "rows_lost")
}

/// A layer that answered.
package struct ServiceLayerResult: Sendable {
    /// The layer URL queried (normalised: no query string, no trailing slash).
    package var url: String {
        get { members.value.url }
        set { members.change { $0.url = newValue } }
    }
    package var layerId: Int? {
        get { members.value.layerId }
        set { members.change { $0.layerId = newValue } }
    }
    package var name: String? {
        get { members.value.name }
        set { members.change { $0.name = newValue } }
    }
    package var objectIdField: String? {
        get { members.value.objectIdField }
        set { members.change { $0.objectIdField = newValue } }
    }
    /// How many features match, as the service counted them.
    package var count: Int {
        get { members.value.count }
        set { members.change { $0.count = newValue } }
    }
    /// False when the selection holds fewer than ``count``: cut by `maxFeatures` or by the result budget, or
    /// rows lost while paging.
    package var isComplete: Bool {
        get { members.value.isComplete }
        set { members.change { $0.isComplete = newValue } }
    }
    package var selection: LayerSelection {
        get { members.value.selection }
        set { members.change { $0.selection = newValue } }
    }
    /// The OGC collection id; `nil` for ArcGIS layers.
    package var collection: String? {
        get { members.value.collection }
        set { members.change { $0.collection = newValue } }
    }
    /// Where the filter ran; `nil` where the protocol always filters on the service (ArcGIS).
    package var filteredBy: FilterSite? {
        get { members.value.filteredBy }
        set { members.change { $0.filteredBy = newValue } }
    }
    /// Why ``isComplete`` is false, when the engine knows.
    package var incompleteReason: IncompleteReason? {
        get { members.value.incompleteReason }
        set { members.change { $0.incompleteReason = newValue } }
    }
    /// Who computed the statistics or the distinct values (`statisticsBy`, `distinctBy`), who joined the
    /// related records (`relatedBy`: the service's `queryRelatedRecords`, or the worker querying the related
    /// table by key) or listed the attachments (`attachmentsBy`); `nil` for other results.
    package var aggregatedBy: ComputationSite? {
        get { members.value.aggregatedBy }
        set { members.change { $0.aggregatedBy = newValue } }
    }
    /// Who put ordered ids, features or statistics rows in the query's `orderBy`; `nil` without one.
    package var orderedBy: ComputationSite? {
        get { members.value.orderedBy }
        set { members.change { $0.orderedBy = newValue } }
    }
    /// HTTP requests this layer's query took (metadata excluded), and how many of them were retries; 0 where
    /// the engine does not count them.
    package var requests: Int {
        get { members.value.requests }
        set { members.change { $0.requests = newValue } }
    }
    package var retries: Int {
        get { members.value.retries }
        set { members.change { $0.retries = newValue } }
    }

    package init(
        url: String, layerId: Int? = nil, name: String? = nil, objectIdField: String? = nil, count: Int,
        isComplete: Bool, selection: LayerSelection, collection: String? = nil, filteredBy: FilterSite? = nil,
        incompleteReason: IncompleteReason? = nil, requests: Int = 0, retries: Int = 0,
        aggregatedBy: ComputationSite? = nil, orderedBy: ComputationSite? = nil
    ) {
        members = SharedValue(Members(
            url: url, layerId: layerId, name: name, objectIdField: objectIdField, count: count,
            isComplete: isComplete, selection: selection, collection: collection, filteredBy: filteredBy,
            incompleteReason: incompleteReason, aggregatedBy: aggregatedBy, orderedBy: orderedBy,
            requests: requests, retries: retries))
    }

    /// The members, behind one reference (``SharedValue``): a layer's result is copied from the engine to the
    /// run's outcome, the outcome's message and each step of writing it, and such a copy is one retain where a
    /// copy of the members was one per string and selection in them.
    private var members: SharedValue<Members>

    private struct Members: Sendable {
        var url: String
        var layerId: Int?
        var name: String?
        var objectIdField: String?
        var count: Int
        var isComplete: Bool
        var selection: LayerSelection
        var collection: String?
        var filteredBy: FilterSite?
        var incompleteReason: IncompleteReason?
        var aggregatedBy: ComputationSite?
        var orderedBy: ComputationSite?
        var requests: Int
        var retries: Int
    }
}

/// One layer's outcome: its result or its error, never both, never neither.
package struct ServiceLayerOutcome: Sendable {
    /// The layer URL (or the target's URL when its layers could not be listed).
    package var url: String
    package var result: Result<ServiceLayerResult, FeatureServiceError>

    package init(url: String, result: Result<ServiceLayerResult, FeatureServiceError>) {
        self.url = url
        self.result = result
    }
}
