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

    /// One grouped-statistics question: the request's filters and grouping, and the same in SQL.
    struct StatisticsCase: Sendable {
        var name: String
        var groupBy: [String] = ["UseType"]
        /// An ArcGIS where clause, and the same condition in PostgreSQL.
        var whereClause: (arcgis: String, sql: String)?
        /// A `time` window (RFC 3339 bounds, both inclusive).
        var time: (start: String, end: String)?

        /// The request's `query`; `orderBy` is a JSON array or empty.
        func query(orderBy: String = "") -> String {
            var members = [#""result":"statistics""#, #""statistics":\#(FeatureTableRequests.statistics)"#]
            members.append(#""groupBy":[\#(groupBy.map { #""\#($0)""# }.joined(separator: ","))]"#)
            if let whereClause { members.append(#""where":"\#(whereClause.arcgis)""#) }
            if let time { members.append(#""time":{"start":"\#(time.start)","end":"\#(time.end)"}"#) }
            if !orderBy.isEmpty { members.append(#""orderBy":\#(orderBy)"#) }
            return "{" + members.joined(separator: ",") + "}"
        }

        /// PostgreSQL's answer (`orderBy` a SQL ORDER BY list or empty).
        func sql(orderBy: String = "") -> String {
            let price = #""SalePrice""#
            let groups = groupBy.map { #""\#($0)""# }.joined(separator: ", ")
            var conditions: [String] = []
            if let whereClause { conditions.append(whereClause.sql) }
            if let time { conditions.append(#""SaleDate" BETWEEN '\#(time.start)' AND '\#(time.end)'"#) }
            let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
            return """
                SELECT \(groups), count(\(price)) AS n, sum(\(price)) AS total, avg(\(price)) AS mean, min(\(price)) AS low,
                    max(\(price)) AS high, stddev_samp(\(price)) AS sd, var_samp(\(price)) AS variance,
                    percentile_cont(0.5) WITHIN GROUP (ORDER BY \(price)) AS median,
                    percentile_disc(0.9) WITHIN GROUP (ORDER BY \(price)) AS p90
                FROM parcel_sales\(filter) GROUP BY \(groups)\(orderBy.isEmpty ? "" : " ORDER BY \(orderBy)")
                """
        }
    }

    /// By UseType over every sale.
    static let byUseType = StatisticsCase(name: "use")
    /// By DocType: a NULL DocType group, and the detector vectors (1…10, {1,3}, a single value, only NULL).
    static let byDocType = StatisticsCase(name: "doc", groupBy: ["DocType"])
    /// By UseType and DocType among the dearer sales of 2017.
    static let filtered = StatisticsCase(
        name: "filtered", groupBy: ["UseType", "DocType"],
        whereClause: ("SalePrice > 500000", #""SalePrice" > 500000"#), time: ("2017-01-01T00:00:00Z", "2017-12-31T23:59:59.999Z"))
    /// By APN: about 5,000 groups, more than the layer's maxRecordCount (1,000), so the service pages them.
    static let byParcel = StatisticsCase(name: "apn", groupBy: ["APN"])
    static let statisticsCases = [byUseType, byDocType, filtered, byParcel]

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
