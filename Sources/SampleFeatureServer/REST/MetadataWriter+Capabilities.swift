import FeatureQuerySupport

/// The query capability flags and `timeInfo` of a layer's metadata, from its ``LayerQueryOptions``: a flag
/// turned off is published as false (and the parameter refused), so clients that read the metadata first
/// and clients that try and fall back can both be tested. Quirks never show here: the
/// `statistics-fail` layer still claims `supportsStatistics`, as the servers it imitates do.
extension MetadataWriter {
    static func advancedCapabilities(_ json: inout JSONWriter, _ layer: PublishedLayer) {
        let options = layer.options
        json.raw(",\"supportsStatistics\":")
        json.bool(options.supportsStatistics)
        json.raw(",\"supportsAdvancedQueries\":")
        json.bool(options.supportsOrderBy)
        json.raw(",\"useStandardizedQueries\":true")
        json.raw(",\"advancedQueryCapabilities\":{\"useStandardizedQueries\":true,\"supportsStatistics\":")
        json.bool(options.supportsStatistics)
        json.raw(",\"supportsPercentileStatistics\":")
        json.bool(options.supportsStatistics && options.supportsPercentileStatistics)
        json.raw(",\"supportsHavingClause\":false,\"supportsOrderBy\":")
        json.bool(options.supportsOrderBy)
        json.raw(",\"supportsDistinct\":")
        json.bool(options.supportsDistinct)
        json.raw(",\"supportsCountDistinct\":")
        json.bool(options.supportsDistinct)
        json.raw(",\"supportsPagination\":")
        json.bool(layer.definition.supportsPagination)
        json.raw(",\"supportsPaginationOnAggregatedQueries\":")
        json.bool(options.supportsPaginationOnAggregatedQueries && layer.definition.supportsPagination)
        json.raw(",\"supportsTrueCurve\":false,\"supportsReturningQueryExtent\":")
        json.bool(options.supportsReturningQueryExtent)
        json.raw(",\"supportsQueryWithDistance\":false,\"supportsSqlExpression\":false")
        json.raw(",\"supportsQueryRelatedPagination\":")
        json.bool(layer.supportsQueryRelatedPagination)
        json.raw(",\"supportsAdvancedQueryRelated\":")
        json.bool(layer.supportsAdvancedQueryRelated)
        json.raw(",\"supportsQueryAttachments\":")
        json.bool(layer.supportsQueryAttachments)
        json.raw("}")
        if let time = layer.definition.timeInfo {
            json.raw(",\"timeInfo\":{\"startTimeField\":")
            json.string(layer.definition.fields[time.field].name)
            json.raw(",\"endTimeField\":null,\"trackIdField\":null,\"timeExtent\":[")
            json.integer(Int(time.start))
            json.raw(",")
            json.integer(Int(time.end))
            json.raw("],\"timeReference\":{\"timeZone\":\"UTC\",\"respectsDaylightSaving\":false}")
            json.raw(",\"timeInterval\":1,\"timeIntervalUnits\":\"esriTimeUnitsYears\",\"hasLiveData\":false}")
        }
        if options.has(.pacificDateFields) {
            // Absent otherwise: ArcGIS's default (UTC), and the other layers' metadata stays as it was.
            json.raw(",\"dateFieldsTimeReference\":{\"timeZone\":\"Pacific Standard Time\",")
            json.raw("\"timeZoneIANA\":\"America/Los_Angeles\",\"respectsDaylightSaving\":true}")
        }
    }
}
