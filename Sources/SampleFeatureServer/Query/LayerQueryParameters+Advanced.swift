/// The advanced parameters (10.1+ layers): ordering, statistics with grouping, distinct values and the
/// extent, each refused with an ArcGIS 400 when the layer's ``LayerQueryOptions`` flag for it is off.
extension LayerQueryParameters {
    mutating func readAdvanced(
        _ parameters: RequestParameters, layer: LayerDefinition, options: LayerQueryOptions
    ) throws(ArcGISServiceError) {
        returnDistinctValues = try parameters.bool("returnDistinctValues", default: false)
        if returnDistinctValues, !options.supportsDistinct {
            throw LayerQueryOptions.refusal("returnDistinctValues", flag: "supportsDistinct")
        }
        if returnExtentOnly, !options.supportsReturningQueryExtent {
            throw LayerQueryOptions.refusal("returnExtentOnly", flag: "supportsReturningQueryExtent")
        }
        if let text = parameters["outStatistics"] {
            guard options.supportsStatistics else { throw LayerQueryOptions.refusal("outStatistics", flag: "supportsStatistics") }
            let parsed = try OutStatistic.parse(text, layer: layer)
            if !options.supportsPercentileStatistics, parsed.contains(where: \.kind.isPercentile) {
                throw LayerQueryOptions.refusal("percentile_cont/percentile_disc", flag: "supportsPercentileStatistics")
            }
            statistics = parsed
            groupBy = try Self.groupBy(parameters["groupByFieldsForStatistics"], layer: layer)
        } else if parameters["groupByFieldsForStatistics"] != nil {
            throw .invalidRequest("'groupByFieldsForStatistics' is valid only with 'outStatistics'")
        }
        if let text = parameters["orderByFields"] {
            guard options.supportsOrderBy else { throw LayerQueryOptions.refusal("orderByFields", flag: "supportsOrderBy") }
            if statistics != nil || returnDistinctValues {
                aggregateOrder = text
            } else if !options.has(.orderIgnored) {
                order = try SortOrder(text, layer: layer)
            }
        }
        if isAggregated, pagingRequested, !options.supportsPaginationOnAggregatedQueries {
            if options.has(.aggregatePagingIgnored) {
                offset = nil
                recordCount = nil
            } else {
                throw LayerQueryOptions.refusal(
                    "resultOffset/resultRecordCount with outStatistics or returnDistinctValues",
                    flag: "supportsPaginationOnAggregatedQueries")
            }
        }
    }

    /// Whether the answer is rows made from several features (grouped statistics or distinct values), which
    /// page only with `supportsPaginationOnAggregatedQueries`.
    var isAggregated: Bool { (statistics != nil && !groupBy.isEmpty) || (returnDistinctValues && statistics == nil) }

    private static func groupBy(_ text: String?, layer: LayerDefinition) throws(ArcGISServiceError) -> [Int] {
        guard let text else { return [] }
        var fields: [Int] = []
        for part in text.split(separator: ",") {
            let name = part.trimmingSpaces()
            if name.isEmpty { continue }
            guard let field = layer.fieldIndex(String(name)) else {
                throw .invalidRequest("'groupByFieldsForStatistics' names an unknown field: '\(name.prefix(60))'")
            }
            if !fields.contains(field) { fields.append(field) }
        }
        guard fields.count <= 8 else { throw .invalidRequest("'groupByFieldsForStatistics' allows at most 8 fields") }
        return fields
    }
}

/// `time=`: an instant (`1199145600000`) or an extent (`start,end`), either end `null` for open, in epoch
/// milliseconds. Both ends are inclusive.
struct TimeFilter: Sendable, Hashable {
    var start: Int64?
    var end: Int64?

    init(_ text: String) throws(ArcGISServiceError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidRequest("'time' must be an instant or 'start,end' in epoch milliseconds; found '\(text.prefix(60))'")
        }
        func bound(_ part: Substring) throws(ArcGISServiceError) -> Int64? {
            if part.isEmpty || part.lowercased() == "null" { return nil }
            guard let value = Int64(part) else {
                throw .invalidRequest("'time' holds '\(part.prefix(40))', not epoch milliseconds or null")
            }
            return value
        }
        start = try bound(parts[0])
        end = parts.count == 2 ? try bound(parts[1]) : start
        if let start, let end, start > end { throw .invalidRequest("'time' starts after it ends") }
    }

    var normalized: String { "\(start.map(String.init) ?? "null"),\(end.map(String.init) ?? "null")" }

    /// Whether a date value falls in the filter (NULL never does).
    func contains(_ value: Int64) -> Bool {
        if let start, value < start { return false }
        if let end, value > end { return false }
        return true
    }
}
