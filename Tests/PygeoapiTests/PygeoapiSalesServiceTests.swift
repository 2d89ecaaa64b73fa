import CurlHTTP
import FeatureQuerySupport
import Foundation
import PygeoapiFixture
import Testing

/// The parcel sales fixture: every sale in PostGIS with its SaleDate as a time, and pygeoapi's `datetime=`
/// and `sortby=` over it answering what SQL answers (what the worker's OGC feature-table tests rely on).
@Suite(.enabled(if: PygeoapiSampleService.isAvailable, "pygeoapi, PostgreSQL or ogr2ogr missing: run scripts/setup-deps"))
struct PygeoapiSalesServiceTests {
    typealias Support = PygeoapiTestSupport

    @Test func tableHoldsEverySaleWithTimesAndNulls() async throws {
        let service = try await PygeoapiSalesService.shared()
        let counts = try await service.database.psql(#"""
            SELECT count(*), count("SaleDate"), count("SalePrice"), count("DocType"), min("SaleDate") AT TIME ZONE 'UTC',
                max("SaleDate") AT TIME ZONE 'UTC', pg_typeof(min("SaleDate")) FROM parcel_sales
            """#).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "|").map(String.init)
        #expect(counts.count == 7)
        guard counts.count == 7 else { return }
        #expect(Int(counts[0]) == service.featureCount && service.featureCount == 6_000)
        for (index, name) in [(1, "SaleDate"), (2, "SalePrice"), (3, "DocType")] {
            let present = Int(counts[index]) ?? 0
            #expect(present > 5_000 && present < 6_000, "\(name): some NULLs, mostly values (\(present))")
        }
        // The detector vectors hold both ends of the time extent, 2015-01-01 and 2024-12-31T23:59:59.
        #expect(counts[4] == "2015-01-01 00:00:00" && counts[5] == "2024-12-31 23:59:59", "\(counts)")
        #expect(counts[6] == "timestamp with time zone")
    }

    @Test func datetimeAndSortbyAgreeWithSQL() async throws {
        let service = try await PygeoapiSalesService.shared()
        let year = try await service.database.psql(#"""
            SELECT count(*) FROM parcel_sales WHERE "SaleDate" BETWEEN '2017-01-01T00:00:00Z' AND '2017-12-31T23:59:59.999Z'
            """#)
        let firstNulls = try await service.database.psql(#"""
            SELECT string_agg("OBJECTID"::text, ',') FROM (
                SELECT "OBJECTID" FROM parcel_sales ORDER BY "SalePrice" DESC NULLS FIRST, "OBJECTID" LIMIT 5) t
            """#)
        let cheapest = try await service.database.psql(#"""
            SELECT string_agg("OBJECTID"::text, ',') FROM (
                SELECT "OBJECTID" FROM parcel_sales ORDER BY "SalePrice" ASC NULLS LAST, "OBJECTID" LIMIT 5) t
            """#)
        let items = service.server.collectionURL(service.collection) + "/items"
        try await Support.withClient { client in
            let window = try Support.page(try await Support.json(client, Support.url(items, [
                ("f", "json"), ("limit", "1"), ("datetime", "2017-01-01T00:00:00Z/2017-12-31T23:59:59.999Z"),
            ])))
            let expected = Int(year.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(window.numberMatched == expected && (expected ?? 0) > 100, "\(String(describing: window.numberMatched)) vs SQL \(year)")
            // pygeoapi sorts as PostgreSQL does: nulls first descending, last ascending.
            for (sortby, expected) in [("-SalePrice,OBJECTID", firstNulls), ("SalePrice,OBJECTID", cheapest)] {
                let sorted = try Support.page(try await Support.json(client, Support.url(items, [
                    ("f", "json"), ("limit", "5"), ("sortby", sortby),
                ])))
                let ids = sorted.ids.map(String.init).joined(separator: ",")
                #expect(ids == expected.trimmingCharacters(in: .whitespacesAndNewlines), "\(sortby): \(ids) vs SQL \(expected)")
            }
        }
    }
}
