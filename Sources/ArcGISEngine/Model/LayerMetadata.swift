import FeatureGeometry
import FeatureService
import QueryLanguage

/// What the engine needs to know about a layer before querying it, from `{layer}?f=json`.
///
/// Loaded once per layer and cached (``MetadataCache``): it decides the page size (`maxRecordCount`), how to
/// page (`supportsPagination`), which field identifies features, and which fields a where clause may name.
struct LayerMetadata: Sendable, Hashable {
    /// The layer URL this was read from, normalised (no trailing slash, no query).
    var url: String {
        didSet { queryEndpoint = url + "/query" }
    }
    /// `<url>/query`, where every query request of the layer goes (built once, not once per query).
    private(set) var queryEndpoint: String
    var id: Int?
    var name: String
    /// `Feature Layer`, `Table`, `Group Layer`, `Raster Layer`...: only feature layers and tables are queried.
    var type: String?
    /// `esriGeometryPolygon`, `esriGeometryPoint`...; nil for tables.
    var geometryType: String?
    var objectIdField: String
    var fields: [LayerField]
    /// The layer's fields for the query language, with field types ArcGIS cannot filter on set aside.
    var schema: LayerSchema {
        didSet { preparedClauses = PreparedClausesField() }
    }
    /// The most features one query returns. 1000 when the metadata does not say (ArcGIS's old default).
    var maxRecordCount: Int
    /// The entries of `capabilities` ("Query", "Create", ...), as sent.
    var capabilities: Set<String>
    /// `advancedQueryCapabilities.supportsPagination` (resultOffset/resultRecordCount).
    var supportsPagination: Bool
    /// `supportedQueryFormats`, lowercased: "json", "geojson", "pbf".
    var supportedQueryFormats: Set<String>
    var supportsStatistics: Bool
    var useStandardizedQueries: Bool
    /// The layer's spatial reference (`extent.spatialReference` or `sourceSpatialReference`).
    var spatialReference: SpatialReference?
    /// What the layer answers beyond attribute and spatial queries (statistics, order, distinct, extent).
    var queryCapabilities = LayerQueryCapabilities()
    /// The layer's `timeInfo`; nil for a layer that is not time-aware.
    var timeInfo: LayerTimeInfo?
    /// The relationships the layer advertises (`relationships`), which `result: related` follows.
    var relationships: [LayerRelationship] = []
    /// `hasAttachments`: whether the layer's features can have attachments.
    var hasAttachments = false
    /// The zone of the layer's date fields when it is not UTC (`dateFieldsTimeReference`): where clauses'
    /// date literals are written in it. nil for UTC layers, whose clauses are sent as written. A change starts
    /// a new clause cache (the cached SQL depends on it).
    var dateFieldsTimeReference: DateFieldsTimeReference? {
        didSet { preparedClauses = PreparedClausesField() }
    }
    /// Where clauses checked against ``schema``, by their text (not part of the value); a new schema starts
    /// a new cache.
    private(set) var preparedClauses = PreparedClausesField()

    init(
        url: String, id: Int?, name: String, type: String?, geometryType: String?, objectIdField: String,
        fields: [LayerField], maxRecordCount: Int, capabilities: Set<String>, supportsPagination: Bool,
        supportedQueryFormats: Set<String>, supportsStatistics: Bool, useStandardizedQueries: Bool,
        spatialReference: SpatialReference?
    ) {
        self.url = url
        queryEndpoint = url + "/query"
        self.id = id
        self.name = name
        self.type = type
        self.geometryType = geometryType
        self.objectIdField = objectIdField
        self.fields = fields
        self.schema = LayerSchema(metadataFields: fields.map { (name: $0.name, type: $0.type.esriName) })
        self.maxRecordCount = maxRecordCount
        self.capabilities = capabilities
        self.supportsPagination = supportsPagination
        self.supportedQueryFormats = supportedQueryFormats
        self.supportsStatistics = supportsStatistics
        self.useStandardizedQueries = useStandardizedQueries
        self.spatialReference = spatialReference
    }

    /// The layer's field named `name` in any letter case (ArcGIS compares field names case-insensitively).
    func field(named name: String) -> LayerField? {
        fields.first { $0.name == name } ?? fields.first { $0.name.caseInsensitiveEquals(name) }
    }

    /// Whether `capabilities` lists Query (case-insensitively); services that omit capabilities are assumed
    /// queryable (MapServer layers of old servers do).
    var supportsQuery: Bool {
        // "Query" as ArcGIS spells it is looked up first, without lowercasing every entry.
        capabilities.isEmpty || capabilities.contains("Query") || capabilities.contains { $0.lowercased() == "query" }
    }
}

/// A service's layer list, from `FeatureServer?f=json` or `MapServer?f=json`: how a target naming a service
/// becomes one query per layer.
struct ServiceMetadata: Sendable, Hashable {
    struct LayerEntry: Sendable, Hashable {
        var id: Int
        var name: String
        var parentLayerId: Int?
        /// Non-empty for group layers, which hold no features of their own.
        var subLayerIds: [Int]
        var isTable: Bool
        /// The entry's `type` (`Feature Layer`, `Raster Layer`, `Group Layer`, ...); `nil` when the service
        /// does not say (older FeatureServers).
        var type: String?

        init(
            id: Int, name: String, parentLayerId: Int? = nil, subLayerIds: [Int] = [], isTable: Bool = false,
            type: String? = nil
        ) {
            self.id = id
            self.name = name
            self.parentLayerId = parentLayerId
            self.subLayerIds = subLayerIds
            self.isTable = isTable
            self.type = type
        }

        /// Whether a whole-service target includes this entry: a feature layer, not a table, a group (it holds
        /// no features of its own) or a raster, annotation or other layer without feature queries, which
        /// would fail and turn every whole-service result `partial`. An entry without a `type` counts as a
        /// feature layer.
        var isQueryableFeatureLayer: Bool {
            guard subLayerIds.isEmpty, !isTable else { return false }
            guard let type else { return true }
            return type.lowercased() == "feature layer"
        }
    }

    /// The service URL this was read from, normalised.
    var url: String
    var layers: [LayerEntry]
    var maxRecordCount: Int?
    var capabilities: Set<String>

    init(url: String, layers: [LayerEntry], maxRecordCount: Int?, capabilities: Set<String>) {
        self.url = url
        self.layers = layers
        self.maxRecordCount = maxRecordCount
        self.capabilities = capabilities
    }
}
