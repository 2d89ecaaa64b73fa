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
    package var url: String
    package var layerId: Int?
    package var name: String?
    package var objectIdField: String?
    /// How many features match, as the service counted them.
    package var count: Int
    /// False when the selection holds fewer than ``count``: cut by `maxFeatures` or by the result budget, or
    /// rows lost while paging.
    package var isComplete: Bool
    package var selection: LayerSelection
    /// The OGC collection id; `nil` for ArcGIS layers.
    package var collection: String?
    /// Where the filter ran; `nil` where the protocol always filters on the service (ArcGIS).
    package var filteredBy: FilterSite?
    /// Why ``isComplete`` is false, when the engine knows.
    package var incompleteReason: IncompleteReason?
    /// Who computed the statistics or the distinct values (`statisticsBy`, `distinctBy`), who joined the
    /// related records (`relatedBy`: the service's `queryRelatedRecords`, or the worker querying the related
    /// table by key) or listed the attachments (`attachmentsBy`); `nil` for other results.
    package var aggregatedBy: ComputationSite?
    /// Who put ordered ids, features or statistics rows in the query's `orderBy`; `nil` without one.
    package var orderedBy: ComputationSite?
    /// HTTP requests this layer's query took (metadata excluded), and how many of them were retries; 0 where
    /// the engine does not count them.
    package var requests: Int
    package var retries: Int

    package init(
        url: String, layerId: Int? = nil, name: String? = nil, objectIdField: String? = nil, count: Int,
        isComplete: Bool, selection: LayerSelection, collection: String? = nil, filteredBy: FilterSite? = nil,
        incompleteReason: IncompleteReason? = nil, requests: Int = 0, retries: Int = 0,
        aggregatedBy: ComputationSite? = nil, orderedBy: ComputationSite? = nil
    ) {
        self.aggregatedBy = aggregatedBy
        self.orderedBy = orderedBy
        self.requests = requests
        self.retries = retries
        self.collection = collection
        self.filteredBy = filteredBy
        self.incompleteReason = incompleteReason
        self.url = url
        self.layerId = layerId
        self.name = name
        self.objectIdField = objectIdField
        self.count = count
        self.isComplete = isComplete
        self.selection = selection
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
