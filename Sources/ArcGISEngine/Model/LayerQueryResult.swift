package import FeatureGeometry

/// Whether a layer's result holds every matching feature, and the evidence.
///
/// The engine counts matches separately (`returnCountOnly`) and compares with the unique ids it received,
/// because services drop and repeat rows while paging (esridump #39, #97; arcgis-python-api #1870).
package struct Completeness: Sendable, Hashable {
    /// The service's count of matching features, when it was asked.
    package var expected: Int?
    /// Unique object ids in the result.
    package var received: Int
    /// Rows that repeated an id already received (dropped from the result).
    package var duplicates: Int
    /// Ids fetched again by `objectIds` because paging missed them.
    package var repaired: Int
    /// The result was cut at the caller's `maxFeatures`.
    package var truncatedByLimit: Bool
    /// The result was cut because the request's ``ResultBudget`` was spent: it holds what arrived before (for
    /// features, whole pages, not necessarily the lowest ids).
    package var truncatedByBudget: Bool

    package init(
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
    package var isComplete: Bool {
        guard !truncatedByLimit, !truncatedByBudget else { return false }
        guard let expected else { return true }
        return received == expected
    }
}

/// One layer's answer: the count and what was selected, with how complete it is.
package struct LayerQueryResult: Sendable {
    /// What a layer selected, by the query's result kind (and, for features, its output): one case, so nobody
    /// re-reads optionals to find out which one the engine filled.
    package enum Selection: Sendable {
        /// `count`: only the count (``LayerQueryResult/count``).
        case countOnly
        /// `ids`: the selection, ascending.
        case objectIds([Int64])
        /// `features` with structured output: the features ordered by object id, the field names in the
        /// service's order (for writing them out), and the spatial reference of their geometries.
        case features([Feature], fieldOrder: [String], spatialReference: SpatialReference?)
        /// `features` with GeoJSON output: ordered by object id, converted page by page as pages arrived.
        case geoJSON(GeoJSONFeatures)
    }

    /// The layer URL queried (normalised, no query string).
    package var url: String
    package var layerId: Int?
    package var name: String
    package var objectIdField: String
    /// The number of matching features (the count query's answer, or the ids received).
    package var count: Int
    package var selection: Selection
    package var completeness: Completeness
    /// HTTP requests this layer took (metadata excluded), and how many were retries.
    package var requests: Int
    package var retries: Int

    package init(
        url: String, layerId: Int?, name: String, objectIdField: String, count: Int, selection: Selection,
        completeness: Completeness, requests: Int, retries: Int
    ) {
        self.url = url
        self.layerId = layerId
        self.name = name
        self.objectIdField = objectIdField
        self.count = count
        self.selection = selection
        self.completeness = completeness
        self.requests = requests
        self.retries = retries
    }

    package var isComplete: Bool { completeness.isComplete }
}

/// One layer's outcome in a fan-out: its result or its error, never both, never neither.
package struct LayerOutcome: Sendable {
    /// The layer URL.
    package var url: String
    package var result: Result<LayerQueryResult, ArcGISError>

    package init(url: String, result: Result<LayerQueryResult, ArcGISError>) {
        self.url = url
        self.result = result
    }
}
