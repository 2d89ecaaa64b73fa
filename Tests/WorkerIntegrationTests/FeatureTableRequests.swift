import FeatureQuerySupport
import SampleFeatureServer
import WorkerTestSupport

/// The feature-table requests of the ground-truth suites, the SQL that answers each, and sample servers over
/// the harness's data with capabilities turned off or quirks on.
enum FeatureTableRequests {
    /// Every statistic type over SalePrice, named as the SQL below names its columns.
    static let statistics = """
        [{"type":"count","field":"SalePrice","name":"n"},{"type":"sum","field":"SalePrice","name":"total"},\
        {"type":"avg","field":"SalePrice","name":"mean"},{"type":"min","field":"SalePrice","name":"low"},\
        {"type":"max","field":"SalePrice","name":"high"},{"type":"stddev","field":"SalePrice","name":"sd"},\
        {"type":"var","field":"SalePrice","name":"variance"},\
        {"type":"percentileCont","field":"SalePrice","name":"median","percentile":0.5},\
        {"type":"percentileDisc","field":"SalePrice","name":"p90","percentile":0.9}]
        """
    static let statisticNames = ["n", "total", "mean", "low", "high", "sd", "variance", "median", "p90"]

    /// The statistics grouped by UseType; `orderBy` is a JSON array or empty.
    static func groupedStatistics(orderBy: String = "") -> String {
        let order = orderBy.isEmpty ? "" : #","orderBy":\#(orderBy)"#
        return #"{"result":"statistics","groupBy":["UseType"],"statistics":\#(statistics)\#(order)}"#
    }

    /// PostgreSQL's answer to ``groupedStatistics(orderBy:)`` (`orderBy` a SQL ORDER BY list or empty).
    static func groupedStatisticsSQL(orderBy: String = "") -> String {
        let price = #""SalePrice""#
        return """
            SELECT "UseType", count(\(price)) AS n, sum(\(price)) AS total, avg(\(price)) AS mean, min(\(price)) AS low,
                max(\(price)) AS high, stddev_samp(\(price)) AS sd, var_samp(\(price)) AS variance,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY \(price)) AS median,
                percentile_disc(0.9) WITHIN GROUP (ORDER BY \(price)) AS p90
            FROM parcel_sales GROUP BY 1\(orderBy.isEmpty ? "" : " ORDER BY \(orderBy)")
            """
    }

    /// Starts a sample server over `dataset` (the harness's) with `--query-option`/`--query-quirk` specs.
    static func variantServer(
        _ dataset: SampleDataset, options: [String] = [], quirks: [String] = []
    ) async throws -> SampleFeatureServer {
        var configuration = SampleServerConfiguration(parcelCount: dataset.parcelCount, seed: dataset.seed)
        try configuration.applyQuerySpecs(options: options, quirks: quirks)
        return try await SampleFeatureServer.start(configuration: configuration, dataset: dataset, logger: WorkerHarness.logger)
    }
}

extension ParsedJSON {
    /// A layer entry's `objectIds` as integers; nil when absent or when any is not an integer.
    var integerObjectIDs: [Int]? {
        guard let values = elements("objectIds") else { return nil }
        let ids = values.compactMap { $0.numberValue.flatMap { Int(exactly: $0) } }
        return ids.count == values.count ? ids : nil
    }
}
