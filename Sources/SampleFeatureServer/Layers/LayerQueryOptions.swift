/// A misbehaviour of real ArcGIS servers around feature-table queries (statistics, distinct values, ordered
/// pages) that the sample server can put on, so that a client's fallbacks can be tested against each.
package enum QueryQuirk: String, CaseIterable, Sendable, Hashable {
    /// `statistics-fail`: the layer advertises `supportsStatistics` but answers every `outStatistics` query with
    /// `{"error":{"code":500,"message":"Cannot complete operation."}}` (openaddresses/machine PR #243).
    case statisticsFail = "statistics-fail"
    /// `aggregate-paging-ignored`: without `supportsPaginationOnAggregatedQueries`, resultOffset and
    /// resultRecordCount on grouped statistics or distinct queries are ignored instead of refused: every
    /// "page" is the first maxRecordCount rows with `exceededTransferLimit:true`, so a paging client loops.
    case aggregatePagingIgnored = "aggregate-paging-ignored"
    /// `uppercase-statistic-names`: statistic output fields come back upper-cased (`avgprice` → `AVGPRICE`),
    /// as some DBMS-backed services return them; clients must compare names ignoring case.
    case uppercaseStatisticNames = "uppercase-statistic-names"
    /// `short-pages`: feature pages hold half of what was asked while `exceededTransferLimit` is true, and
    /// the page that ends the selection still says true (the next, empty page says false): the flag is not
    /// tied to the page size, so a client must page until it is absent or false.
    case shortPages = "short-pages"
    /// `shuffled-pages`: `orderByFields` is honoured within each page but the pages come in reverse sequence
    /// (offset 0 serves the last page), so the concatenation is not ordered.
    case shuffledPages = "shuffled-pages"
    /// `order-ignored`: `orderByFields` is accepted (and advertised) but ignored: features come in OBJECTID order.
    case orderIgnored = "order-ignored"
    /// `pacific-date-fields`: not a misbehaviour but a server setting clients must honour: the layer keeps its
    /// date fields in Pacific time. Its metadata publishes `dateFieldsTimeReference` (`Pacific Standard Time`,
    /// `America/Los_Angeles`, daylight saving respected) and its where clauses read `DATE`/`TIMESTAMP` literals
    /// compared with date fields as Pacific wall time, while results still give dates as UTC epoch ms, as
    /// ArcGIS does.
    case pacificDateFields = "pacific-date-fields"
    /// `related-short-chunk`: a queryRelatedRecords answer whose rows come from more than one origin is cut
    /// at half the related table's transfer limit (500 rows of 1000) with `exceededTransferLimit:true`, though
    /// the real limit was not reached. A paging client gets a short page with the flag set (and must go on
    /// from where it ended); a client without related paging must ask again for fewer origins.
    case relatedShortChunk = "related-short-chunk"
}

/// What one layer advertises and obeys for feature-table queries beyond where/geometry/paging: the
/// `advancedQueryCapabilities` flags (each, when false, is published as false and the parameter it gates is
/// refused with an ArcGIS 400 error) and the quirks it puts on. Set per server
/// (``SampleServerConfiguration/queryOptions``) or per layer (``SampleServerConfiguration/layerQueryOptions``),
/// or from the command line (`--query-option`, `--query-quirk`). Legacy (10.0) layers ignore all of it: they
/// have no advanced queries and silently ignore the parameters, as such servers did.
package struct LayerQueryOptions: Sendable, Hashable {
    /// `outStatistics` (and `groupByFieldsForStatistics`).
    package var supportsStatistics = true
    /// `percentile_cont` / `percentile_disc` statistic types.
    package var supportsPercentileStatistics = true
    /// `orderByFields` (published as both `supportsAdvancedQueries` and `supportsOrderBy`).
    package var supportsOrderBy = true
    /// `returnDistinctValues` (and `supportsCountDistinct` for it with returnCountOnly).
    package var supportsDistinct = true
    /// `returnExtentOnly`.
    package var supportsReturningQueryExtent = true
    /// resultOffset/resultRecordCount on grouped statistics and distinct queries; without it those results
    /// are cut at maxRecordCount with `exceededTransferLimit:true` and paging parameters are refused.
    package var supportsPaginationOnAggregatedQueries = true
    /// resultOffset/resultRecordCount on queryRelatedRecords. nil keeps the service's default: true on the
    /// 11.2 parcels FeatureServer, false on the 11.1 USA MapServer (map services page related records from 11.3).
    package var supportsQueryRelatedPagination: Bool?
    /// orderByFields and returnCountOnly on queryRelatedRecords. nil keeps the service's default, as for
    /// ``supportsQueryRelatedPagination``.
    package var supportsAdvancedQueryRelated: Bool?
    /// The queryAttachments operation. nil keeps the default: true on layers with attachments. A layer
    /// without attachments never supports it, whatever this says.
    package var supportsQueryAttachments: Bool?
    package var quirks: Set<QueryQuirk> = []

    package init() {}

    /// The flag names `set(_:_:)` accepts, as layer metadata spells them.
    package static let flagNames = [
        "supportsStatistics", "supportsPercentileStatistics", "supportsOrderBy", "supportsAdvancedQueries", "supportsDistinct",
        "supportsReturningQueryExtent", "supportsPaginationOnAggregatedQueries", "supportsQueryRelatedPagination",
        "supportsAdvancedQueryRelated", "supportsQueryAttachments",
    ]

    /// Sets a flag by its metadata name (any case; `supportsAdvancedQueries` is `supportsOrderBy`); false
    /// for an unknown name.
    package mutating func set(_ name: String, _ value: Bool) -> Bool {
        switch name.lowercased() {
        case "supportsstatistics": supportsStatistics = value
        case "supportspercentilestatistics": supportsPercentileStatistics = value
        case "supportsorderby", "supportsadvancedqueries": supportsOrderBy = value
        case "supportsdistinct": supportsDistinct = value
        case "supportsreturningqueryextent": supportsReturningQueryExtent = value
        case "supportspaginationonaggregatedqueries": supportsPaginationOnAggregatedQueries = value
        case "supportsqueryrelatedpagination": supportsQueryRelatedPagination = value
        case "supportsadvancedqueryrelated": supportsAdvancedQueryRelated = value
        case "supportsqueryattachments": supportsQueryAttachments = value
        default: return false
        }
        return true
    }

    func has(_ quirk: QueryQuirk) -> Bool { quirks.contains(quirk) }

    /// The ArcGIS error for a parameter a flag turns off.
    static func refusal(_ parameter: String, flag: String) -> ArcGISServiceError {
        ArcGISServiceError(
            code: 400, message: "'\(parameter)' is not supported by this layer.",
            details: ["The layer's \(flag) is false."])
    }
}
