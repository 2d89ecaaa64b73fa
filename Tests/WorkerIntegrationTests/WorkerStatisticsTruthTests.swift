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
        let layerPath = SampleLayer.parcelSales.rawValue
        let noStatistics = try await FeatureTableRequests.variantServer(harness.dataset, options: ["\(layerPath)=supportsStatistics=false"])
        let failing = try await FeatureTableRequests.variantServer(harness.dataset, quirks: ["statistics-fail"])
        let noPercentiles = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(layerPath)=supportsPercentileStatistics=false"])
        let upper = try await FeatureTableRequests.variantServer(harness.dataset, quirks: ["uppercase-statistic-names"])
        let noPaging = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(layerPath)=supportsPaginationOnAggregatedQueries=false"])
        let pagingIgnored = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(layerPath)=supportsPaginationOnAggregatedQueries=false"], quirks: ["aggregate-paging-ignored"])
        let variants = [noStatistics, failing, noPercentiles, upper, noPaging, pagingIgnored]
        // `by` nil: either may compute (without aggregate paging, the service answers what fits one page).
        let servers: [(name: String, url: String, by: String?)] = [
            ("server", harness.url(.parcelSales), "server"),
            ("no-statistics", noStatistics.layerURL(.parcelSales), "worker"),
            ("statistics-fail", failing.layerURL(.parcelSales), "worker"),
            ("no-percentiles", noPercentiles.layerURL(.parcelSales), "worker"),
            ("upper", upper.layerURL(.parcelSales), "server"),
            ("no-paging", noPaging.layerURL(.parcelSales), nil),
            ("paging-ignored", pagingIgnored.layerURL(.parcelSales), nil),
        ]
        var requests: [(id: String, statistics: FeatureTableRequests.StatisticsCase, by: String?)] = []
        for statistics in FeatureTableRequests.statisticsCases {
            for (name, url, by) in servers {
                // The many parcel groups matter where paging aggregates does; elsewhere they only cost time.
                if statistics.name == FeatureTableRequests.byParcel.name, ["statistics-fail", "no-percentiles", "upper"].contains(name) {
                    continue
                }
                let id = "\(statistics.name)-\(name)"
                try await harness.send(id, WorkerHarness.request(id, url: url, query: statistics.query()))
                requests.append((id, statistics, by))
            }
        }
        let ordered = #"[{"field":"total","direction":"desc"}]"#
        for (id, url) in [("ordered-server", harness.url(.parcelSales)), ("ordered-worker", noStatistics.layerURL(.parcelSales))] {
            try await harness.send(id, WorkerHarness.request(id, url: url, query: FeatureTableRequests.byUseType.query(orderBy: ordered)))
        }

        let outcomes = try await harness.outcomesByRequest(requests.count + 2).compactMapValues(\.first)
        var expected: [String: StatisticsTable] = [:]
        for statistics in FeatureTableRequests.statisticsCases {
            let rows = try await truth.rows(statistics.sql())
            expected[statistics.name] = TableComparison.table(
                rows, groupColumns: statistics.groupBy, names: FeatureTableRequests.statisticNames)
        }
        let byDocType = try #require(expected[FeatureTableRequests.byDocType.name])
        #expect(byDocType["null"] != nil, "a NULL DocType is a group of its own")
        #expect(byDocType["Vector nulls"]?["n"] == .some(0) && byDocType["Vector nulls"]?["total"] == .some(nil),
                "only NULL prices: count 0, the rest null")
        #expect(byDocType["Vector single"]?["sd"] == .some(nil) && byDocType["Vector 1-10"]?["p90"] == .some(9))
        #expect((expected[FeatureTableRequests.filtered.name]?.count ?? 0) > 3, "the filtered groups are several")
        #expect((expected[FeatureTableRequests.byParcel.name]?.count ?? 0) > 2_000, "more parcel groups than two pages")

        for (id, statistics, by) in requests {
            let outcome = outcomes[id]
            #expect(outcome?.status == "succeeded", "\(id): \(String(describing: outcome))")
            let layer = outcome?.firstLayer
            let site = layer?.text("statisticsBy")
            #expect(by.map { site == $0 } ?? (site == "server" || site == "worker"), "\(id): \(String(describing: site))")
            let table = TableComparison.table(layer, groupColumns: statistics.groupBy).table
            let differences = TableComparison.differences(table, expected[statistics.name] ?? [:])
            #expect(differences.isEmpty, "\(id): \(differences)")
        }

        let sqlOrder = try await truth.rows(FeatureTableRequests.byUseType.sql(orderBy: #"total DESC NULLS FIRST, "UseType""#))
            .map { TableComparison.key([$0["UseType"]]) }
        for (id, by) in [("ordered-server", "server"), ("ordered-worker", "worker")] {
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(layer?.text("statisticsBy") == by, "\(id)")
            let (table, order) = TableComparison.table(layer, groupColumns: ["UseType"])
            #expect(TableComparison.differences(table, expected[FeatureTableRequests.byUseType.name] ?? [:]).isEmpty, "\(id)")
            #expect(order == sqlOrder, "\(id): groups by total descending: \(order) vs SQL \(sqlOrder)")
            #expect(layer?.text("orderedBy") != nil, "\(id): the result says who ordered")
        }

        for server in variants { await server.shutdown() }
        try await harness.stop()
    }
}
