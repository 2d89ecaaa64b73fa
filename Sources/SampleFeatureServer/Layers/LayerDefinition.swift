import FeatureGeometry
import QueryLanguage

/// One field as layer metadata lists it.
struct FieldDefinition: Sendable {
    let name: String
    let type: FieldType
    let alias: String
    /// The declared length of string (and date) fields; nil for numbers.
    let length: Int?

    init(_ name: String, _ type: FieldType, alias: String? = nil, length: Int? = nil) {
        self.name = name
        self.type = type
        self.alias = alias ?? name
        self.length = length ?? (type == .date ? 8 : nil)
    }
}

/// Everything layer metadata says about a layer, and what the query operation obeys.
struct LayerDefinition: Sendable {
    let layer: SampleLayer
    let name: String
    /// "Feature Layer" or "Raster Layer".
    let type: String
    let geometryType: GeometryType?
    let fields: [FieldDefinition]
    let displayField: String
    let maxRecordCount: Int
    /// As published, e.g. "Query" or "Map,Query,Data"; a layer without "Query" refuses queries.
    let capabilities: String
    let supportsPagination: Bool
    /// Whether orderByFields is honoured (advanced queries, 10.1+).
    let supportsAdvancedQueries: Bool
    let supportsGeoJSON: Bool
    /// The version the layer's service reports, as JSON number text.
    let currentVersion: String
    let spatialReference: SpatialReference
    let extent: Envelope
    let description: String
    /// Whether an empty returnIdsOnly answer is `"objectIds":null` (ArcGIS Enterprise) rather than `[]`.
    let emptyIdsAsNull: Bool
    /// The layer's `timeInfo`: time-aware layers filter on its field when a query has `time`.
    var timeInfo: LayerTimeInfo? = nil
    /// Whether features have attachments (`queryAttachments`, `<oid>/attachments`).
    var hasAttachments = false

    var objectIdField: String { fields.first?.name ?? "OBJECTID" }
    var isFeatureLayer: Bool { type == "Feature Layer" }
    /// A table: a queryable layer without geometry, listed under the service's `tables`.
    var isTable: Bool { type == "Table" }
    var supportsQuery: Bool { capabilities.split(separator: ",").contains { $0.trimmingSpaces() == "Query" } }
    var supportedQueryFormats: String { supportsGeoJSON ? "JSON, geoJSON" : "JSON, AMF" }

    /// The schema where clauses are validated against.
    var schema: LayerSchema { LayerSchema(fields: fields.map { LayerField(name: $0.name, type: $0.type, alias: $0.alias) }) }

    /// The field's position, found ignoring letter case as ArcGIS does.
    func fieldIndex(_ name: String) -> Int? {
        let wanted = name.lowercased()
        return fields.firstIndex { $0.name.lowercased() == wanted }
    }

    /// The same layer with other capabilities (a test's override).
    func with(capabilities: String) -> LayerDefinition {
        LayerDefinition(
            layer: layer, name: name, type: type, geometryType: geometryType, fields: fields, displayField: displayField,
            maxRecordCount: maxRecordCount, capabilities: capabilities, supportsPagination: supportsPagination,
            supportsAdvancedQueries: supportsAdvancedQueries, supportsGeoJSON: supportsGeoJSON,
            currentVersion: currentVersion, spatialReference: spatialReference, extent: extent,
            description: description, emptyIdsAsNull: emptyIdsAsNull, timeInfo: timeInfo, hasAttachments: hasAttachments)
    }
}

/// A time-aware layer's `timeInfo`: the date field `time=` filters on and the extent its values span.
struct LayerTimeInfo: Sendable {
    /// The position of the `startTimeField`.
    let field: Int
    /// The earliest and latest values of the field, epoch milliseconds (`timeExtent`).
    let start: Int64
    let end: Int64
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
