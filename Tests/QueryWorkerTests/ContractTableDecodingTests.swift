import FeatureQuerySupport
import FeatureService
import Testing

@testable import QueryWorker
import WorkerTestSupport
@testable import RequestContract

/// Contract 1.2's feature-table members as the decoder reads them: the examples, the defaults, and what the
/// feature-service seam receives; and requests that differ in them never share a run.
@Suite struct ContractTableDecodingTests {
    static let layer = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"

    static func decode(_ query: String) throws -> QueryRequest {
        let value = Array(#"{"requestId":"r","targets":[{"type":"arcgis","url":"\#(layer)"}],"query":\#(query)}"#.utf8)
        guard case .query(let request) = try ContractSupport.decoder().decode(value, key: nil, receivedAt: 0) else {
            throw ContractTestFailure("\(query) was not accepted: \(try ContractSupport.decoder().decode(value, key: nil, receivedAt: 0))")
        }
        return request
    }

    @Test func theStatisticsExample() throws {
        let request = try ContractExampleTests.query("request-statistics.json")
        let query = request.serviceQuery
        #expect(query.result == .statistics)
        #expect(query.groupBy == ["UseType"])
        #expect(query.statistics == [
            StatisticDefinition(type: .count, field: "APN", name: "parcels"),
            StatisticDefinition(type: .sum, field: "Roll_LandValue", name: "sum_Roll_LandValue"),
            StatisticDefinition(type: .avg, field: "Roll_LandValue", name: "mean_land_value"),
            StatisticDefinition(type: .percentileCont, field: "Roll_LandValue", name: "median_land_value", percentile: 0.5),
        ])
        #expect(query.orderBy == [OrderTerm(field: "parcels", descending: true)])
        #expect(query.whereClause != nil)
    }

    @Test func theTimeWindowExample() throws {
        let query = try ContractExampleTests.query("request-time-window.json").serviceQuery
        #expect(query.time == TimeWindow(start: RFC3339.milliseconds(from: "2025-01-01T00:00:00Z"), end: nil))
        #expect(query.objectIds == [.integer(17), .integer(42), .string("a-17")])
        #expect(query.result == .ids)
    }

    @Test func theOrderedTopExample() throws {
        let query = try ContractExampleTests.query("request-ordered-top.json").serviceQuery
        #expect(query.orderBy == [OrderTerm(field: "Roll_LandValue", descending: true), OrderTerm(field: "APN")])
        #expect(query.maxFeatures == 10 && query.result == .features)
    }

    @Test func theExtentAndDistinctExamples() throws {
        let extent = try ContractExampleTests.query("request-extent.json").serviceQuery
        #expect(extent.result == .extent)
        #expect(extent.time?.start == RFC3339.milliseconds(from: "2024-01-01T00:00:00Z"))
        #expect(extent.time?.end == RFC3339.milliseconds(from: "2024-12-31T23:59:59.999Z"))
        let distinct = try ContractExampleTests.query("request-distinct.json").serviceQuery
        #expect(distinct.result == .distinct && distinct.outFields == ["UseType", "UseDescription"])
    }

    /// A 1.1 request decodes as before: none of the new members is set.
    @Test func olderRequestsGetNoneOfTheNewMembers() throws {
        let query = try Self.decode(#"{"where":"A = 1","result":"features"}"#).serviceQuery
        #expect(query.objectIds == nil && query.time == nil)
        #expect(query.orderBy.isEmpty && query.statistics.isEmpty && query.groupBy.isEmpty)
    }

    @Test func defaultsAndEdges() throws {
        let instant = try Self.decode(#"{"time":{"start":"2025-06-01T12:00:00+02:00","end":"2025-06-01T10:00:00Z"}}"#)
        #expect(instant.serviceQuery.time?.isInstant == true)
        let openStart = try Self.decode(#"{"time":{"end":"2025-06-01T10:00:00Z"}}"#)
        #expect(openStart.serviceQuery.time == TimeWindow(start: nil, end: RFC3339.milliseconds(from: "2025-06-01T10:00:00Z")))
        let ascending = try Self.decode(#"{"orderBy":[{"field":"A"},{"field":"B","direction":"asc"}]}"#)
        #expect(ascending.serviceQuery.orderBy == [OrderTerm(field: "A"), OrderTerm(field: "B")])
        let statistics = try Self.decode(
            #"{"result":"statistics","statistics":[{"type":"count","field":"*"},{"type":"max","field":"Änderung"}],"groupBy":[]}"#)
        #expect(statistics.serviceQuery.statistics.map(\.name) == ["count__", "max__nderung"])
        #expect(statistics.serviceQuery.groupBy.isEmpty)
        let ordered = try Self.decode(
            #"{"result":"statistics","groupBy":["G"],"statistics":[{"type":"sum","field":"A"}],"orderBy":[{"field":"G"},{"field":"sum_A","direction":"desc"}]}"#)
        #expect(ordered.serviceQuery.orderBy == [OrderTerm(field: "G"), OrderTerm(field: "sum_A", descending: true)])
        let ids = try Self.decode(#"{"objectIds":[1,"1",9007199254740991]}"#)
        #expect(ids.serviceQuery.objectIds == [.integer(1), .string("1"), .integer(9_007_199_254_740_991)])
    }

    /// The run-sharing fingerprint is the whole query: two requests that differ only in a 1.2 member never
    /// share a run (each would get the other's answer).
    @Test(arguments: [
        (#"{"result":"statistics","statistics":[{"type":"sum","field":"A"}]}"#,
         #"{"result":"statistics","statistics":[{"type":"avg","field":"A"}]}"#),
        (#"{"result":"statistics","statistics":[{"type":"sum","field":"A"}]}"#,
         #"{"result":"statistics","statistics":[{"type":"sum","field":"A","name":"total"}]}"#),
        (#"{"result":"statistics","statistics":[{"type":"percentileCont","field":"A","percentile":0.5}]}"#,
         #"{"result":"statistics","statistics":[{"type":"percentileCont","field":"A","percentile":0.9}]}"#),
        (#"{"result":"statistics","statistics":[{"type":"sum","field":"A"}]}"#,
         #"{"result":"statistics","statistics":[{"type":"sum","field":"A"}],"groupBy":["G"]}"#),
        (#"{"objectIds":[1,2]}"#, #"{"objectIds":[1,3]}"#),
        (#"{"time":{"start":"2025-01-01T00:00:00Z"}}"#, #"{"time":{"end":"2025-01-01T00:00:00Z"}}"#),
        (#"{"orderBy":[{"field":"A"}]}"#, #"{"orderBy":[{"field":"A","direction":"desc"}]}"#),
        (#"{"outFields":["A"],"result":"distinct"}"#, #"{"outFields":["A"],"result":"features"}"#),
        (#"{"result":"extent"}"#, #"{"result":"count"}"#),
    ])
    func requestsDifferingInATableMemberDoNotShare(_ pair: (String, String)) throws {
        let first = try Self.decode(pair.0)
        let second = try Self.decode(pair.1)
        #expect(!first.asksSame(as: second))
        #expect(first.serviceQuery != second.serviceQuery)
        #expect(first.asksSame(as: try Self.decode(pair.0)), "the same request shares")
    }

    /// Spelling that means the same still shares: `direction: "asc"` is the default.
    @Test func theDefaultDirectionShares() throws {
        let first = try Self.decode(#"{"orderBy":[{"field":"A"}]}"#)
        let second = try Self.decode(#"{"orderBy":[{"field":"A","direction":"asc"}]}"#)
        #expect(first.asksSame(as: second))
    }
}
