import Foundation
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import Testing

@testable import ArcGISEngine

/// How the engine asks for what a feature table answers beyond a selection: the parameters it sends, the
/// capabilities it reads, the checks it makes before sending, and how it reads the answers. No I/O.
@Suite("ArcGIS feature-table requests")
struct FeatureTableRequestTests {
    static func layer(timeAware: Bool = false) -> LayerMetadata {
        var layer = LayerMetadata(
            url: "http://h/arcgis/rest/services/LA/FeatureServer/0", id: 0, name: "Parcels", type: "Feature Layer",
            geometryType: "esriGeometryPolygon", objectIdField: "OBJECTID",
            fields: [
                LayerField(name: "OBJECTID", type: .objectID), LayerField(name: "UseType", type: .string),
                LayerField(name: "Roll_LandValue", type: .double), LayerField(name: "SaleDate", type: .date),
            ],
            maxRecordCount: 1000, capabilities: ["Query"], supportsPagination: true, supportedQueryFormats: ["JSON"],
            supportsStatistics: true, useStandardizedQueries: true, spatialReference: SpatialReference(wkid: 3857))
        if timeAware { layer.timeInfo = LayerTimeInfo(startTimeField: "SaleDate") }
        return layer
    }

    static func fields(_ parameters: QueryParameters) -> [String: String] {
        let text = String(decoding: parameters.encodedBytes, as: UTF8.self)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            let decode = { (value: String) in (value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding) ?? value }
            fields[decode(parts[0])] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    @Test("objectIds and a time window go into every request's base; open ends are null, an instant one number")
    func objectIdsAndTime() throws {
        let layer = Self.layer(timeAware: true)
        var query = ServiceQuery(result: .count, objectIds: [.integer(3), .integer(1), .integer(2)])
        query.time = TimeWindow(start: 1_199_145_600_000, end: nil)
        let fields = Self.fields(try QueryParameters.base(query, layer: layer))
        #expect(fields["objectIds"] == "3,1,2")
        #expect(fields["time"] == "1199145600000,null")
        #expect(QueryParameters.timeValue(TimeWindow(start: nil, end: 5)) == "null,5")
        #expect(QueryParameters.timeValue(TimeWindow(start: 7, end: 7)) == "7")
        #expect(Self.fields(try QueryParameters.base(ServiceQuery(result: .count), layer: layer))["time"] == nil)
    }

    @Test("A time window on a layer without timeInfo fails before anything is sent, naming why")
    func timeNeedsATimeAwareLayer() throws {
        var query = ServiceQuery(result: .ids)
        query.time = TimeWindow(start: 0, end: 1)
        let error = #expect(throws: FeatureServiceError.self) { _ = try QueryCheck.check(query, for: Self.layer()) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("not time-aware") == true)
        _ = try QueryCheck.check(query, for: Self.layer(timeAware: true))
    }

    @Test("String feature ids, unknown fields and sums of strings are refused with the field named")
    func featureTableChecks() {
        let layer = Self.layer()
        let cases: [(ServiceQuery, String)] = [
            (ServiceQuery(result: .ids, objectIds: [.string("a")]), "integers"),
            (ServiceQuery(result: .ids, orderBy: [OrderTerm(field: "Nope")]), "Nope"),
            (ServiceQuery(result: .statistics, statistics: [StatisticDefinition(type: .sum, field: "UseType", name: "s")]), "numeric"),
            (ServiceQuery(result: .statistics, statistics: [StatisticDefinition(type: .count, field: "UseType", name: "n")], groupBy: ["Missing"]), "Missing"),
            (ServiceQuery(
                result: .statistics, orderBy: [OrderTerm(field: "Roll_LandValue")],
                statistics: [StatisticDefinition(type: .count, field: "UseType", name: "n")], groupBy: ["UseType"]), "statistic names"),
            (ServiceQuery(outFields: ["*"], result: .distinct), "outFields"),
        ]
        for (query, expected) in cases {
            let error = #expect(throws: FeatureServiceError.self) { _ = try QueryCheck.check(query, for: layer) }
            #expect(error?.code == .invalidQuery)
            #expect(error?.message.contains(expected) == true, "\(error?.message ?? "") should name \(expected)")
        }
    }

    @Test("outStatistics is written as ArcGIS reads it; percentiles upper case with their value")
    func outStatisticsJSON() throws {
        let text = LayerQueryRunner.outStatistics([
            StatisticDefinition(type: .sum, field: "Roll_LandValue", name: "total"),
            StatisticDefinition(type: .percentileCont, field: "Roll_LandValue", name: "median", percentile: 0.5),
        ])
        #expect(text == #"[{"statisticType":"sum","onStatisticField":"Roll_LandValue","outStatisticFieldName":"total"},"#
            + #"{"statisticType":"PERCENTILE_CONT","onStatisticField":"Roll_LandValue","outStatisticFieldName":"median","statisticParameters":{"value":0.5}}]"#)
        #expect(LayerQueryRunner.orderByFields([OrderTerm(field: "a"), OrderTerm(field: "b", descending: true)]) == "a ASC, b DESC")
    }

    @Test("Capabilities come from the flags; supportsAdvancedQueries stands in for order and distinct on old servers")
    func capabilities() throws {
        let modern = try ParsedJSON(reading: Array(#"""
            {"supportsStatistics":true,"advancedQueryCapabilities":{"supportsOrderBy":false,"supportsDistinct":true,
             "supportsPercentileStatistics":true,"supportsReturningQueryExtent":true,"supportsPaginationOnAggregatedQueries":true}}
            """#.utf8))
        let flags = LayerQueryCapabilities(modern.objectValue ?? [:])
        #expect(flags.statistics && flags.percentileStatistics && flags.distinct && flags.queryExtent && flags.paginationOnAggregatedQueries)
        #expect(!flags.orderBy)
        let old = LayerQueryCapabilities(try ParsedJSON(reading: Array(#"{"supportsAdvancedQueries":true}"#.utf8)).objectValue ?? [:])
        #expect(old.orderBy && old.distinct && !old.statistics && !old.percentileStatistics)
        let time = try ParsedJSON(reading: Array(#"{"timeInfo":{"startTimeField":"SaleDate","endTimeField":""}}"#.utf8))
        #expect(LayerTimeInfo(time.objectValue ?? [:]) == LayerTimeInfo(startTimeField: "SaleDate"))
        #expect(LayerTimeInfo([:]) == nil)
    }

    @Test("Statistics rows are read by name in any case, typed by the layer's fields")
    func attributeRows() throws {
        let body = Array(#"""
            {"features":[{"attributes":{"USETYPE":"Residential","TOTAL":12.0,"N":3,"LAST":1199145600000}},
                         {"attributes":{"usetype":null,"total":null,"n":0}}],"exceededTransferLimit":true}
            """#.utf8)
        let page = try ArcGISResponse.attributePage(body, layer: "http://h/x/FeatureServer/0")
        #expect(page.exceededTransferLimit)
        let columns = AttributeColumns(names: ["UseType", "total", "n", "last"], types: [.string, nil, nil, .date])
        #expect(columns.record(page.rows[0]) == [.string("Residential"), .integer(12), .integer(3), .date(1_199_145_600_000)])
        #expect(columns.record(page.rows[1]) == [.null, .null, .integer(0), .null])
    }

    @Test("A count with an extent reads both; an empty selection has no extent")
    func countAndExtent() throws {
        let full = Array(#"{"count":2,"extent":{"xmin":1,"ymin":2,"xmax":3,"ymax":4,"spatialReference":{"wkid":3857}}}"#.utf8)
        let (count, extent) = try ArcGISResponse.countAndExtent(full, layer: "http://h/x/FeatureServer/0")
        #expect(count == 2)
        #expect(extent == Envelope(xmin: 1, ymin: 2, xmax: 3, ymax: 4, spatialReference: SpatialReference(wkid: 3857)))
        let empty = Array(#"{"count":0,"extent":{"xmin":"NaN","ymin":"NaN","xmax":"NaN","ymax":"NaN"}}"#.utf8)
        #expect(try ArcGISResponse.countAndExtent(empty, layer: "http://h/x/FeatureServer/0").extent == nil)
        #expect(throws: FeatureServiceError.self) { _ = try ArcGISResponse.countAndExtent(Array(#"{"extent":null}"#.utf8), layer: "http://h/x") }
    }

    @Test("Offset pages by object id are disjoint unless a later page repeats an earlier id")
    func pageSpans() {
        let a = PageSpan(offset: 0, first: .integer(1), last: .integer(10))
        let b = PageSpan(offset: 10, first: .integer(11), last: .integer(20))
        let overlapping = PageSpan(offset: 10, first: .integer(10), last: .integer(19))
        let empty = PageSpan(offset: 20, first: nil, last: nil)
        #expect(PageSpan.areDisjoint([b, a, empty]))
        #expect(!PageSpan.areDisjoint([overlapping, a]))
    }

    @Test("The rows before a key are written lexicographically with the object id last; dates and nulls are not written")
    func precedingRows() {
        let terms = [OrderTerm(field: "Price", descending: true), OrderTerm(field: "Name")]
        #expect(LayerQueryRunner.precedes(terms, key: [.integer(5), .string("O'Hara")], objectIdField: "OBJECTID", id: 9)
            == "(Price > 5) OR (Price = 5 AND Name < 'O''Hara') OR (Price = 5 AND Name = 'O''Hara' AND OBJECTID < 9)")
        #expect(LayerQueryRunner.precedes(terms, key: [.date(0), .string("a")], objectIdField: "OBJECTID", id: 1) == nil)
        #expect(LayerQueryRunner.precedes(terms, key: [.null, .string("a")], objectIdField: "OBJECTID", id: 1) == nil)
    }
}
