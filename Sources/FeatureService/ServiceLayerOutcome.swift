/// What a layer selected, by the query's result kind: one case, so nobody re-reads three optionals to find
/// out which one the engine filled.
public enum LayerSelection: Sendable {
    /// `result: count`: only the count (``ServiceLayerResult/count``).
    case countOnly
    /// `result: ids`: the selection, ascending.
    case objectIds([Int64])
    /// `result: features`: the features as GeoJSON (and so their ids).
    case features(GeoJSONFeatureList)
}

/// A layer that answered.
public struct ServiceLayerResult: Sendable {
    /// The layer URL queried (normalised: no query string, no trailing slash).
    public var url: String
    public var layerId: Int?
    public var name: String?
    public var objectIdField: String?
    /// How many features match, as the service counted them.
    public var count: Int
    /// False when the selection holds fewer than ``count``: cut by `maxFeatures` or by the result budget, or
    /// rows lost while paging.
    public var isComplete: Bool
    public var selection: LayerSelection

    public init(
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
public struct ServiceLayerOutcome: Sendable {
    /// The layer URL (or the target's URL when its layers could not be listed).
    public var url: String
    public var result: Result<ServiceLayerResult, FeatureServiceError>

    public init(url: String, result: Result<ServiceLayerResult, FeatureServiceError>) {
        self.url = url
        self.result = result
    }
}
