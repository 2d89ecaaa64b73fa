import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import ArcGISEngine

/// The engine against the sample server's Parcel_Sales served in UTC and in Pacific time
/// (`pacific-date-fields`): a clause whose bounds straddle the 2020-03-08 US change selects the same sales on
/// both, equal to a count over the raw rows' UTC epoch ms; the same literal sent raw to the Pacific layer
/// selects other sales, so the comparison can fail.
@Suite("Date literals on a layer in Pacific time, end to end")
struct DateFieldsTimeZoneEngineTests {
    static let sales = SampleLayer.parcelSales
    static let pacificQuirk = [SampleLayer.parcelSales.rawValue + "=pacific-date-fields"]
    /// 2020-03-08 10:00 UTC (03:00 PDT, the change; sale 6 is at this instant) to 2020-03-09 00:00 UTC.
    static let clause = "SaleDate >= TIMESTAMP '2020-03-08 10:00:00' AND SaleDate < TIMESTAMP '2020-03-09 00:00:00'"
    static let low: Int64 = 1_583_661_600_000
    static let high: Int64 = 1_583_712_000_000
    /// The same window in days (midnight UTC to midnight UTC), 2020-03-08 only.
    static let dayClause = "SaleDate >= DATE '2020-03-08' AND SaleDate < DATE '2020-03-09'"
    static let dayLow: Int64 = 1_583_625_600_000

    /// The OBJECTIDs whose SaleDate (UTC epoch ms) is in `low..<high`, from the raw rows.
    static func bruteForce(_ rows: [[String: ParsedJSON]], _ low: Int64, _ high: Int64) -> [Int] {
        rows.compactMap { row in
            guard let date = row["SaleDate"]?.int64Value, date >= low, date < high else { return nil }
            return row["OBJECTID"]?.integerValue
        }.sorted()
    }

    /// The ids and count the engine gives for `text` on the server's Parcel_Sales.
    static func engineAnswer(_ server: SampleFeatureServer, _ engine: ArcGISEngine, _ text: String) async throws -> ([Int], Int?) {
        let ids = try await engine.query(layer: server.layerURL(sales), ServiceQuery(whereClause: try WhereClause(text), result: .ids))
        let count = try await engine.query(layer: server.layerURL(sales), ServiceQuery(whereClause: try WhereClause(text), result: .count))
        return (ArcGISTestSupport.ids(ids).sorted(), count.count)
    }

    /// The ids the server gives for `text` sent as written, by a plain GET (no engine, no conversion).
    static func rawIds(_ server: SampleFeatureServer, _ text: String) async throws -> [Int] {
        var encoded: [UInt8] = []
        HTTPRequest.appendFormEncoded(text, to: &encoded)
        let url = server.queryURL(sales) + "?where=" + String(decoding: encoded, as: UTF8.self) + "&returnIdsOnly=true&f=json"
        let body = try ParsedJSON(parsing: try await ArcGISTestSupport.fetch(url))
        return (body["objectIds"]?.arrayValue ?? []).compactMap(\.integerValue).sorted()
    }

    @Test("Same sales on a UTC layer and a Pacific layer, equal to the raw rows; the raw literal differs")
    func straddlingTheSpringChange() async throws {
        let (utcIds, utcCount, expected, expectedDay, utcDay) = try await ArcGISTestSupport.withEngine { server, engine in
            let metadata = String(decoding: try await ArcGISTestSupport.fetch(server.layerURL(Self.sales) + "?f=json"), as: UTF8.self)
            #expect(!metadata.contains("dateFieldsTimeReference"))
            let rows = try await FeatureTableEngineTests.rawSales(server)
            let (ids, count) = try await Self.engineAnswer(server, engine, Self.clause)
            let (day, _) = try await Self.engineAnswer(server, engine, Self.dayClause)
            return (ids, count, Self.bruteForce(rows, Self.low, Self.high), Self.bruteForce(rows, Self.dayLow, Self.high), day)
        }
        #expect(expected.contains(6))
        #expect(utcIds == expected)
        #expect(utcCount == expected.count)
        #expect(utcDay == expectedDay)
        try await ArcGISTestSupport.withEngine(queryQuirks: Self.pacificQuirk) { server, engine in
            let metadata = String(decoding: try await ArcGISTestSupport.fetch(server.layerURL(Self.sales) + "?f=json"), as: UTF8.self)
            #expect(metadata.contains(#""timeZoneIANA":"America/Los_Angeles","respectsDaylightSaving":true"#))
            // The same rows, returned in UTC.
            #expect(Self.bruteForce(try await FeatureTableEngineTests.rawSales(server), Self.low, Self.high) == expected)
            let (ids, count) = try await Self.engineAnswer(server, engine, Self.clause)
            #expect(ids == expected)
            #expect(count == expected.count)
            let (day, _) = try await Self.engineAnswer(server, engine, Self.dayClause)
            #expect(day == expectedDay)
            // Sent unconverted, the Pacific layer reads 10:00 as 10:00 PDT (17:00 UTC): sale 6 and others drop out.
            let raw = try await Self.rawIds(server, Self.clause)
            #expect(raw != expected)
            #expect(!raw.contains(6))
        }
    }
}
