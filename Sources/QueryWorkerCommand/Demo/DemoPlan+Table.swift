import FeatureQueryClient
import QueryLanguage
import SampleFeatureServer

/// Contract 1.2's feature-table queries, as a dashboard over the seed's map sends them: land value by use type
/// in the seed extent, answered by the ArcGIS layer (the service computes) and by the OGC collection of the
/// same parcels (the worker computes: OGC API Features has no statistics), the ten most valuable parcels in
/// view, a year of sales on the time-aware layer, and a time window on a layer that is not time-aware, which
/// must fail rather than return every feature (ArcGIS ignores `time` on such a layer).
extension DemoPlan {
    /// The statistics' names, in the order they are asked (the report's columns).
    static let statisticNames = (count: "parcels", sum: "sum_land_value", avg: "avg_land_value")
    /// How many parcels the top list asks for.
    static let topCount = 10
    /// A year of sales: inclusive ends, as the contract's `time` is.
    static let salesWindow = (start: "2020-01-01T00:00:00Z", end: "2020-12-31T23:59:59Z")
    /// The window asked of a layer without `timeInfo` (and, in the same request, of the sales).
    static let lastYear = (start: "2024-01-01T00:00:00Z", end: "2024-12-31T23:59:59Z")

    static func tablePhase(server: SampleFeatureServer) throws -> [DemoRequest] {
        guard let collection = SampleFeatureServer.ogcCollectionID(.parcels) else {
            throw DemoPlanError(message: "the sample server has no parcels collection")
        }
        let dataset = server.dataset
        let parcels = server.layerURL(.parcels)
        let sales = server.layerURL(.parcelSales)
        let inView = try dataset.groundTruthObjectIDs(.parcels, envelope: SampleDataset.seedExtent)
        let groups = try DemoTableTruth.grouped(
            dataset, .parcels, ids: inView, groupField: "UseType", valueField: "Roll_LandValue", names: statisticNames)
        let extent = Query.Extent(seedExtent)
        let statistics = Query(
            extent: extent, result: .statistics,
            statistics: [
                Query.Statistic("count", field: "Roll_LandValue", name: statisticNames.count),
                Query.Statistic("sum", field: "Roll_LandValue", name: statisticNames.sum),
                Query.Statistic("avg", field: "Roll_LandValue", name: statisticNames.avg),
            ],
            groupBy: ["UseType"])

        let byServer = DemoRequest(
            job: job("table/land-value-by-use", targets: [.arcgis(url: parcels)], query: statistics),
            expected: .statistics(ExpectedStatistics(url: parcels, count: inView.count, groupField: "UseType", groups: groups, by: "server")))
        let ogcURL = "\(server.ogcURL)/collections/\(collection)"
        let byWorker = DemoRequest(
            job: job(
                "table/land-value-ogc", targets: [.ogc(landingPage: server.ogcURL, collection: collection)],
                query: statistics),
            expected: .statistics(ExpectedStatistics(url: ogcURL, count: inView.count, groupField: "UseType", groups: groups, by: "worker")))

        let top = DemoRequest(
            job: job(
                "table/top-\(topCount)-land-value", targets: [.arcgis(url: parcels)],
                query: .init(
                    extent: extent, maxFeatures: topCount, result: .ids,
                    orderBy: [Query.Order("Roll_LandValue", descending: true)])),
            expected: .succeeded([ExpectedLayer(
                url: parcels, truth: try DemoTableTruth.descending(dataset, .parcels, ids: inView, field: "Roll_LandValue"),
                idsReturned: true, maxFeatures: topCount, ordered: true)]))

        let sold = try DemoTableTruth.within(dataset, .parcelSales, field: "SaleDate", start: salesWindow.start, end: salesWindow.end)
        let year = DemoRequest(
            job: job(
                "table/sales-2020", targets: [.arcgis(url: sales)],
                query: .init(result: .count, time: .init(start: salesWindow.start, end: salesWindow.end))),
            expected: .succeeded([ExpectedLayer(url: sales, truth: sold, idsReturned: false)]))

        let soldLastYear = try DemoTableTruth.within(dataset, .parcelSales, field: "SaleDate", start: lastYear.start, end: lastYear.end)
        let notTimeAware = DemoRequest(
            job: job(
                "table/time-not-time-aware", targets: [.arcgis(url: parcels), .arcgis(url: sales)],
                query: .init(result: .count, time: .init(start: lastYear.start, end: lastYear.end))),
            expected: .partial([
                ExpectedLayer(url: parcels, truth: nil, idsReturned: false, failureCode: "invalid_query"),
                ExpectedLayer(url: sales, truth: soldLastYear, idsReturned: false),
            ]))
        return [byServer, byWorker, top, year, notTimeAware]
    }
}
