import FeatureGeometry

/// The response formats `f` selects.
enum ResponseFormat: String, Sendable {
    case json, pjson, geojson, html

    init(_ parameters: RequestParameters) throws(ArcGISServiceError) {
        guard let text = parameters["f"] else {
            self = .html
            return
        }
        guard let format = ResponseFormat(rawValue: text.lowercased().trimmingSpaces()) else { throw .unsupportedFormat }
        self = format
    }
}

/// A layer query's parameters, read and checked against the layer: everything the executor and the
/// writers need, with every problem already turned into an ArcGIS error.
struct LayerQueryParameters: Sendable {
    var predicate: WherePredicate?
    var objectIDs: [Int]?
    var spatial: SpatialQuery?
    /// Positions of the fields to return, in the order asked for.
    var outFields: [Int]
    var returnGeometry: Bool
    var returnIdsOnly: Bool
    var returnCountOnly: Bool
    var returnExtentOnly: Bool
    var offset: Int?
    var recordCount: Int?
    var order: SortOrder?
    var statistics: [OutStatistic]?
    /// `groupByFieldsForStatistics`: positions of the group fields (with statistics only).
    var groupBy: [Int] = []
    var returnDistinctValues = false
    /// `orderByFields` of a statistics or distinct query, over its output columns (checked when they are known).
    var aggregateOrder: String?
    /// `time=`, applied on time-aware layers only (others ignore it, as ArcGIS does).
    var time: TimeFilter?
    var outSR: SpatialReference
    var format: ResponseFormat
    /// Identifies the selection (where, objectIds, geometry, order) for the selection cache.
    var selectionKey: String

    /// Whether the client asked for a page (resultOffset or resultRecordCount).
    var pagingRequested: Bool { offset != nil || recordCount != nil }

    init(
        _ parameters: RequestParameters, layer: LayerDefinition, options: LayerQueryOptions = LayerQueryOptions()
    ) throws(ArcGISServiceError) {
        format = try ResponseFormat(parameters)
        if format == .geojson, !layer.supportsGeoJSON { throw .unsupportedFormat }
        let whereText = parameters["where"]
        predicate = try whereText.map { (text) throws(ArcGISServiceError) in 
            try WherePredicate(text, layer: layer, pacificDateFields: options.has(.pacificDateFields))
        }
        objectIDs = try Self.objectIDs(parameters["objectIds"])
        let geometryText = parameters["geometry"]
        // A table has no geometry: ArcGIS ignores the geometry parameters on it.
        spatial = try geometryText.flatMap { (text) throws(ArcGISServiceError) in
            guard !layer.isTable else { return nil }
            return try GeometryParameter.spatialQuery(text, parameters: parameters, layer: layer)
        }
        guard whereText != nil || geometryText != nil || objectIDs != nil || parameters["time"] != nil else {
            throw .invalidRequest("Either 'where' or 'geometry' or 'objectIds' must be specified")
        }
        outFields = try Self.outFields(parameters["outFields"], layer: layer)
        returnGeometry = try parameters.bool("returnGeometry", default: true)
        returnIdsOnly = try parameters.bool("returnIdsOnly", default: false)
        returnCountOnly = try parameters.bool("returnCountOnly", default: false)
        returnExtentOnly = try parameters.bool("returnExtentOnly", default: false)
        if layer.supportsPagination {
            offset = try parameters.integer("resultOffset", minimum: 0)
            recordCount = try parameters.integer("resultRecordCount", minimum: 1)
        }
        outSR = try parameters.spatialReference("outSR") ?? layer.spatialReference
        guard outSR.isWGS84 || outSR.isWebMercator else {
            throw .invalidRequest("'outSR' \(outSR.wkid) is not supported; use 4326 or 102100 (3857)")
        }
        selectionKey = ""
        if layer.supportsAdvancedQueries {  // 10.0 layers ignore all of these
            try readAdvanced(parameters, layer: layer, options: options)
        }
        if let text = parameters["time"] { time = try TimeFilter(text) }
        var key = "w=" + (predicate?.normalized ?? "")
        key += "|o=" + (objectIDs.map { $0.map(String.init).joined(separator: ",") } ?? "")
        key += "|g=" + (geometryText ?? "") + "|t=" + (parameters["geometryType"] ?? "")
        key += "|s=" + (parameters["inSR"] ?? "") + "|r=" + (parameters["spatialRel"] ?? "")
        key += "|b=" + (order?.normalized ?? "")
        if layer.timeInfo != nil, let time { key += "|time=" + time.normalized }
        selectionKey = key
    }

    static func objectIDs(_ text: String?) throws(ArcGISServiceError) -> [Int]? {
        guard let text else { return nil }
        var ids: [Int] = []
        for part in text.split(separator: ",") {
            let trimmed = part.trimmingSpaces()
            if trimmed.isEmpty { continue }
            guard let id = Int(trimmed) else {
                throw .invalidRequest("'objectIds' must be a comma-separated list of integers; found '\(trimmed.prefix(40))'")
            }
            ids.append(id)
        }
        return ids
    }

    static func outFields(_ text: String?, layer: LayerDefinition) throws(ArcGISServiceError) -> [Int] {
        guard let text else { return layer.fields.isEmpty ? [] : [0] }
        var positions: [Int] = []
        for part in text.split(separator: ",") {
            let name = part.trimmingSpaces()
            if name.isEmpty { continue }
            if name == "*" { return Array(layer.fields.indices) }
            guard let position = layer.fieldIndex(String(name)) else {
                throw .invalidRequest("Invalid field '\(name.prefix(60))' in 'outFields'")
            }
            if !positions.contains(position) { positions.append(position) }
        }
        return positions.isEmpty && !layer.fields.isEmpty ? [0] : positions
    }
}
