import FeatureQuerySupport
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// Ordered top N of Parcel_Sales through Kafka against PostgreSQL's ORDER BY over the same rows (nulls first
/// descending, last ascending; ties by OBJECTID), from a service that orders, one that cannot, and ones whose
/// order cannot be trusted.
@Suite("Worker ordered top N against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerOrderTruthTests {
    /// Top 10 by SalePrice (nulls first descending, as PostgreSQL sorts), ties by OBJECTID.
    static let topTen = #"{"orderBy":[{"field":"SalePrice","direction":"desc"}],"maxFeatures":10}"#
    static let topTenSQL = #"SELECT "OBJECTID" FROM parcel_sales ORDER BY "SalePrice" DESC NULLS FIRST, "OBJECTID" LIMIT 10"#
    /// The same among priced sales (no nulls: the service's order can be proved).
    static let topTenPriced = #"{"where":"SalePrice IS NOT NULL","orderBy":[{"field":"SalePrice","direction":"desc"}],"maxFeatures":10}"#
    static let topTenPricedSQL = #"""
        SELECT "OBJECTID" FROM parcel_sales WHERE "SalePrice" IS NOT NULL ORDER BY "SalePrice" DESC, "OBJECTID" LIMIT 10
        """#
    /// The cheapest 10 (nulls last ascending).
    static let bottomTen = #"{"orderBy":[{"field":"SalePrice","direction":"asc"}],"maxFeatures":10}"#
    static let bottomTenSQL = #"SELECT "OBJECTID" FROM parcel_sales ORDER BY "SalePrice" ASC NULLS LAST, "OBJECTID" LIMIT 10"#
    /// Two keys: by DocType (nulls first descending), then the dearest first, among 2,000 ids.
    static let twoKeys = #"""
        {"where":"OBJECTID <= 2000","orderBy":[{"field":"DocType","direction":"desc"},{"field":"SalePrice","direction":"desc"}],\#
        "maxFeatures":25}
        """#
    static let twoKeysSQL = #"""
        SELECT "OBJECTID" FROM parcel_sales WHERE "OBJECTID" <= 2000
        ORDER BY "DocType" DESC NULLS FIRST, "SalePrice" DESC NULLS FIRST, "OBJECTID" LIMIT 25
        """#
    static let orders = [
        ("top", topTen, topTenSQL), ("top-priced", topTenPriced, topTenPricedSQL), ("bottom", bottomTen, bottomTenSQL),
        ("two-keys", twoKeys, twoKeysSQL),
    ]

    @Test func orderedTopNAgreesWithSQLWhateverTheServiceDoesWithTheOrder() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let layerPath = SampleLayer.parcelSales.rawValue
        let noOrder = try await FeatureTableRequests.variantServer(harness.dataset, options: ["\(layerPath)=supportsOrderBy=false"])
        let ignored = try await FeatureTableRequests.variantServer(harness.dataset, quirks: ["\(layerPath)=order-ignored"])
        let shuffled = try await FeatureTableRequests.variantServer(harness.dataset, quirks: ["\(layerPath)=shuffled-pages"])
        let servers: [(name: String, url: String, by: String?)] = [
            ("server", harness.url(.parcelSales), nil), ("no-order", noOrder.layerURL(.parcelSales), "worker"),
            ("order-ignored", ignored.layerURL(.parcelSales), nil), ("shuffled", shuffled.layerURL(.parcelSales), nil),
        ]
        var requests: [(id: String, sql: String, by: String?)] = []
        for (order, query, sql) in Self.orders {
            for (name, url, by) in servers {
                let id = "\(order)-\(name)"
                try await harness.send(id, WorkerHarness.request(id, url: url, query: query))
                requests.append((id, sql, by))
            }
        }
        let outcomes = try await harness.outcomesByRequest(requests.count).compactMapValues(\.first)

        var expected: [String: [Int]] = [:]
        for (_, _, sql) in Self.orders {
            expected[sql] = try await truth.integers(sql)
        }
        #expect(expected[Self.topTenSQL] != expected[Self.topTenPricedSQL], "NULL prices lead the descending order")
        for (id, sql, by) in requests {
            let ids = try #require(expected[sql])
            try #require(ids.count >= 10)
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(layer?.integerObjectIDs == ids, "\(id): \(String(describing: layer?.integerObjectIDs)) vs SQL \(ids)")
            #expect(layer?["complete"] == .bool(false) && layer?.text("incompleteReason") == "max_features", "\(id)")
            let site = layer?.text("orderedBy")
            #expect(by.map { site == $0 } ?? (site == "server" || site == "worker"), "\(id): ordered by \(String(describing: site))")
        }

        for server in [noOrder, ignored, shuffled] { await server.shutdown() }
        try await harness.stop()
    }
}
