/// What a layer selected, by the query's result kind: one case, so nobody re-reads three optionals to find
/// out which one the engine filled.
package enum LayerSelection: Sendable {
    /// `result: count`: only the count (``ServiceLayerResult/count``).
    case countOnly
    /// `result: ids`: the selection, ascending.
    case objectIds([Int64])
    /// `result: features`: the features as GeoJSON (and so their ids).
    case features(GeoJSONFeatureList)
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

    package init(
        url: String, layerId: Int? = nil, name: String? = nil, objectIdField: String? = nil, count: Int,
        isComplete: Bool, selection: LayerSelection
    ) {
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
