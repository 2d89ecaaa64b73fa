import FeatureQuerySupport
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The feature-table answers of OGC API Features collections through Kafka, against PostgreSQL over the same
/// rows: the sample server's OGC face (`LA_County_Parcel_Sales`) and pygeoapi's PostgreSQL provider over the
/// very table the SQL reads. OGC servers compute no statistics: the worker does.
@Suite("Worker OGC feature-table answers against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerOGCTableTruthTests {
    /// The sample server's OGC face and pygeoapi (PostGIS), as (id prefix, landing page, collection).
    static func targets(_ harness: WorkerHarness, _ truth: SalesTruth) throws -> [(id: String, landing: String, collection: String)] {
        [("sample", harness.server.ogcURL, try WorkerHarness.collection(.parcelSales)),
         ("pygeoapi", truth.pygeoapiLanding, truth.pygeoapiCollection)]
    }

    @Test
    func groupedStatisticsAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let targets = try Self.targets(harness, truth)
        for (target, landing, collection) in targets {
            for statistics in FeatureTableRequests.statisticsCases {
                let id = "\(statistics.name)-\(target)"
                try await harness.send(id, WorkerHarness.ogcRequest(id, landing: landing, collection: collection, query: statistics.query()))
            }
        }
        let count = targets.count * FeatureTableRequests.statisticsCases.count
        let outcomes = try await harness.outcomesByRequest(count).compactMapValues(\.first)
        for statistics in FeatureTableRequests.statisticsCases {
            let expected = TableComparison.table(
                try await truth.rows(statistics.sql()), groupColumns: statistics.groupBy, names: FeatureTableRequests.statisticNames)
            try #require(expected.count > 2)
            for (target, _, _) in targets {
                let id = "\(statistics.name)-\(target)"
                #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
                let layer = outcomes[id]?.firstLayer
                #expect(layer?.text("statisticsBy") == "worker", "\(id)")
                let table = TableComparison.table(layer, groupColumns: statistics.groupBy).table
                let differences = TableComparison.differences(table, expected)
                #expect(differences.isEmpty, "\(id): \(differences)")
            }
        }
        try await harness.stop()
    }

    @Test
    func orderedTopTenAgreesWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let targets = try Self.targets(harness, truth)
        let orders = [("top", WorkerOrderTruthTests.topTen, WorkerOrderTruthTests.topTenSQL),
                      ("bottom", WorkerOrderTruthTests.bottomTen, WorkerOrderTruthTests.bottomTenSQL)]
        for (target, landing, collection) in targets {
            for (order, query, _) in orders {
                let id = "\(target)-\(order)"
                try await harness.send(id, WorkerHarness.ogcRequest(id, landing: landing, collection: collection, query: query))
            }
        }
        let outcomes = try await harness.outcomesByRequest(targets.count * orders.count).compactMapValues(\.first)
        for (order, _, sql) in orders {
            let expected = try await truth.integers(sql)
            try #require(expected.count == 10)
            for (target, _, _) in targets {
                let id = "\(target)-\(order)"
                #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
                let layer = outcomes[id]?.firstLayer
                #expect(layer?.integerFeatureIDs == expected, "\(id): \(String(describing: layer?.integerFeatureIDs)) vs SQL \(expected)")
                #expect(layer?.text("orderedBy") != nil, "\(id): the result says who ordered")
            }
        }
        try await harness.stop()
    }

    @Test
    func timeWindowAndObjectIdsAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let targets = try Self.targets(harness, truth)
        let vectors = (1...15).map(String.init).joined(separator: ",")
        let queries = [
            ("2017", #"{"time":\#(WorkerSelectionTruthTests.year2017)}"#, WorkerSelectionTruthTests.year2017SQL),
            ("vectors", #"{"objectIds":[\#(vectors)],"time":\#(WorkerSelectionTruthTests.vectorWindow)}"#,
             WorkerSelectionTruthTests.vectorWindowSQL),
        ]
        for (target, landing, collection) in targets {
            for (name, query, _) in queries {
                let id = "\(name)-\(target)"
                try await harness.send(id, WorkerHarness.ogcRequest(id, landing: landing, collection: collection, query: query))
            }
        }
        let outcomes = try await harness.outcomesByRequest(targets.count * queries.count).compactMapValues(\.first)
        for (name, _, sql) in queries {
            let expected = try await truth.integers(sql)
            try #require(!expected.isEmpty && expected.count < 1_000, "\(name): some sales, not all")
            for (target, _, _) in targets {
                let id = "\(name)-\(target)"
                #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
                let ids = outcomes[id]?.firstLayer?.integerFeatureIDs?.sorted()
                #expect(ids == expected, "\(id): \(ids?.count ?? 0) sales vs SQL \(expected.count)")
            }
        }
        try await harness.stop()
    }
}
