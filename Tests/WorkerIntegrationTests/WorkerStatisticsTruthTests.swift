import FeatureQuerySupport
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// Grouped statistics over Parcel_Sales through Kafka, compared with PostgreSQL's aggregates over the same
/// rows: answered by the ArcGIS service, computed by the worker where the service cannot or fails.
@Suite("Worker statistics against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerStatisticsTruthTests {
    @Test func groupedStatisticsByServiceAndWorkerAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let noStatistics = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(SampleLayer.parcelSales.rawValue)=supportsStatistics=false"])
        let failing = try await FeatureTableRequests.variantServer(harness.dataset, quirks: ["statistics-fail"])
        let cases: [(id: String, url: String, by: String)] = [
            ("server", harness.url(.parcelSales), "server"),
            ("no-statistics", noStatistics.layerURL(.parcelSales), "worker"),
            ("statistics-fail", failing.layerURL(.parcelSales), "worker"),
        ]
        for (id, url, _) in cases {
            try await harness.send(id, WorkerHarness.request(id, url: url, query: FeatureTableRequests.groupedStatistics()))
        }
        let ordered = #"[{"field":"total","direction":"desc"}]"#
        try await harness.send("ordered", WorkerHarness.request(
            "ordered", url: harness.url(.parcelSales), query: FeatureTableRequests.groupedStatistics(orderBy: ordered)))
        try await harness.send("ordered-worker", WorkerHarness.request(
            "ordered-worker", url: noStatistics.layerURL(.parcelSales),
            query: FeatureTableRequests.groupedStatistics(orderBy: ordered)))

        let outcomes = try await harness.outcomesByRequest(cases.count + 2).compactMapValues(\.first)
        let sqlRows = try await truth.rows(FeatureTableRequests.groupedStatisticsSQL(orderBy: #"total DESC NULLS FIRST, "UseType""#))
        let expected = TableComparison.table(sqlRows, groupColumns: ["UseType"], names: FeatureTableRequests.statisticNames)
        let expectedOrder = sqlRows.map { TableComparison.key([$0["UseType"]]) }
        try #require(expected.count > 2, "several use types: \(expected.keys.sorted())")

        for (id, _, by) in cases + [("ordered", "", "server"), ("ordered-worker", "", "worker")] {
            let outcome = outcomes[id]
            #expect(outcome?.status == "succeeded", "\(id): \(String(describing: outcome))")
            let layer = outcome?.firstLayer
            #expect(layer?.text("statisticsBy") == by, "\(id)")
            let (table, order) = TableComparison.table(layer, groupColumns: ["UseType"])
            let differences = TableComparison.differences(table, expected)
            #expect(differences.isEmpty, "\(id): \(differences)")
            if id.hasPrefix("ordered") {
                #expect(order == expectedOrder, "\(id): groups by total descending")
                #expect(layer?.text("orderedBy") != nil, "\(id): the result says who ordered")
            }
        }

        await noStatistics.shutdown()
        await failing.shutdown()
        try await harness.stop()
    }
}
