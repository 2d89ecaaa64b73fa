public import FeatureGeometry

/// Whether a layer's result holds every matching feature, and the evidence.
///
/// The engine counts matches separately (`returnCountOnly`) and compares with the unique ids it received,
/// because services drop and repeat rows while paging (esridump #39, #97; arcgis-python-api #1870).
public struct Completeness: Sendable, Hashable {
    /// The service's count of matching features, when it was asked.
    public var expected: Int?
    /// Unique object ids in the result.
    public var received: Int
    /// Rows that repeated an id already received (dropped from the result).
    public var duplicates: Int
    /// Ids fetched again by `objectIds` because paging missed them.
    public var repaired: Int
    /// The result was cut at the caller's `maxFeatures`.
    public var truncatedByLimit: Bool
    /// The result was cut because the request's ``ResultBudget`` was spent: it holds what arrived before (for
    /// features, whole pages, not necessarily the lowest ids).
    public var truncatedByBudget: Bool

    public init(
        expected: Int?, received: Int, duplicates: Int = 0, repaired: Int = 0, truncatedByLimit: Bool = false,
        truncatedByBudget: Bool = false
    ) {
        self.expected = expected
        self.received = received
        self.duplicates = duplicates
        self.repaired = repaired
        self.truncatedByLimit = truncatedByLimit
        self.truncatedByBudget = truncatedByBudget
    }

    /// True when every match arrived: the unique ids equal the count (or no count was needed), and nothing
    /// was cut by a limit.
    public var isComplete: Bool {
        guard !truncatedByLimit, !truncatedByBudget else { return false }
        guard let expected else { return true }
        return received == expected
    }
}

/// One layer's answer: the selection, the count, or the features, with how complete it is.
public struct LayerQueryResult: Sendable {
    /// The layer URL queried (normalised, no query string).
    public var url: String
    public var layerId: Int?
    public var name: String
    public var objectIdField: String
    /// The number of matching features (the count query's answer, or the ids received).
    public var count: Int
    /// The selection, ascending; nil when the result kind is `count`. For `features`, the features' ids.
    public var objectIds: [Int64]?
    /// The features, ordered by object id; nil unless the result kind is `features` with structured output.
    public var features: [Feature]?
    /// The features as GeoJSON, ordered by object id; nil unless the result kind is `features` with GeoJSON
    /// output.
    public var geoJSON: GeoJSONFeatures?
    /// Field names in the service's order, for writing features out.
    public var fieldOrder: [String]
    /// The spatial reference of the features' geometries.
    public var spatialReference: SpatialReference?
    public var completeness: Completeness
    /// HTTP requests this layer took (metadata excluded), and how many were retries.
    public var requests: Int
    public var retries: Int

    public init(
        url: String, layerId: Int?, name: String, objectIdField: String, count: Int, objectIds: [Int64]?,
        features: [Feature]?, geoJSON: GeoJSONFeatures? = nil, fieldOrder: [String], spatialReference: SpatialReference?,
        completeness: Completeness, requests: Int, retries: Int
    ) {
        self.url = url
        self.layerId = layerId
        self.name = name
        self.objectIdField = objectIdField
        self.count = count
        self.objectIds = objectIds
        self.features = features
        self.geoJSON = geoJSON
        self.fieldOrder = fieldOrder
        self.spatialReference = spatialReference
        self.completeness = completeness
        self.requests = requests
        self.retries = retries
    }

    public var isComplete: Bool { completeness.isComplete }
}

/// One layer's outcome in a fan-out: its result or its error, never both, never neither.
public struct LayerOutcome: Sendable {
    /// The layer URL.
    public var url: String
    public var result: Result<LayerQueryResult, ArcGISError>

    public init(url: String, result: Result<LayerQueryResult, ArcGISError>) {
        self.url = url
        self.result = result
    }
}
