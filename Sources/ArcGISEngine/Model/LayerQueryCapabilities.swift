import FeatureQuerySupport

/// What a layer says it can answer beyond attribute and spatial queries, from its metadata's top level and
/// `advancedQueryCapabilities`. The engine asks the service only for what it claims; everything else (and
/// whatever a claim turns out false) the worker computes from the complete selection.
struct LayerQueryCapabilities: Sendable, Hashable {
    /// `outStatistics` and `groupByFieldsForStatistics`.
    var statistics = false
    /// `PERCENTILE_CONT`/`PERCENTILE_DISC` in `outStatistics`.
    var percentileStatistics = false
    /// `orderByFields`.
    var orderBy = false
    /// `returnDistinctValues`.
    var distinct = false
    /// `returnExtentOnly`.
    var queryExtent = false
    /// `resultOffset`/`resultRecordCount` on statistics and distinct queries: without it an aggregated answer
    /// cut at `maxRecordCount` cannot be completed on the service.
    var paginationOnAggregatedQueries = false
    /// `resultOffset`/`resultRecordCount` on `queryRelatedRecords` (`supportsQueryRelatedPagination`): without
    /// it a related answer cut at the transfer limit is completed by asking for fewer origins at a time.
    var queryRelatedPagination = false
    /// `orderByFields` and `returnCountOnly` on `queryRelatedRecords` (`supportsAdvancedQueryRelated`, 11.2+).
    var advancedQueryRelated = false
    /// `queryAttachments` (`supportsQueryAttachments`): without it each feature's attachments are read from
    /// its own `<layer>/<objectId>/attachments` resource.
    var queryAttachments = false

    init() {}

    /// The flags of a layer's metadata members. `supportsAdvancedQueries` stands for `orderBy` and `distinct`
    /// when `advancedQueryCapabilities` does not name them (older servers).
    init(_ members: [String: ParsedJSON]) {
        let advanced = members["advancedQueryCapabilities"]?.objectValue ?? [:]
        let advancedQueries = members["supportsAdvancedQueries"]?.boolValue ?? false
        statistics = members["supportsStatistics"]?.boolValue ?? advanced["supportsStatistics"]?.boolValue ?? false
        percentileStatistics = statistics && (advanced["supportsPercentileStatistics"]?.boolValue ?? false)
        orderBy = advanced["supportsOrderBy"]?.boolValue ?? advancedQueries
        distinct = advanced["supportsDistinct"]?.boolValue ?? advancedQueries
        queryExtent = advanced["supportsReturningQueryExtent"]?.boolValue ?? false
        paginationOnAggregatedQueries = advanced["supportsPaginationOnAggregatedQueries"]?.boolValue ?? false
        queryRelatedPagination = advanced["supportsQueryRelatedPagination"]?.boolValue ?? false
        advancedQueryRelated = advanced["supportsAdvancedQueryRelated"]?.boolValue ?? false
        queryAttachments = members["supportsQueryAttachments"]?.boolValue
            ?? advanced["supportsQueryAttachments"]?.boolValue ?? false
    }
}

/// A time-aware layer's `timeInfo`: the fields a query's `time` is matched against. A layer without one is not
/// time-aware, and ArcGIS ignores `time` there (every feature would match), so the engine refuses such a query.
struct LayerTimeInfo: Sendable, Hashable {
    var startTimeField: String
    /// For features that last (a start and an end); `nil` for instants.
    var endTimeField: String?

    /// `timeInfo` of a layer's metadata; nil when it is absent or names no start field.
    init?(_ members: [String: ParsedJSON]) {
        guard let info = members["timeInfo"]?.objectValue,
            let start = info["startTimeField"]?.stringValue, !start.isEmpty
        else { return nil }
        startTimeField = start
        endTimeField = info["endTimeField"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
    }

    init(startTimeField: String, endTimeField: String? = nil) {
        self.startTimeField = startTimeField
        self.endTimeField = endTimeField
    }
}
