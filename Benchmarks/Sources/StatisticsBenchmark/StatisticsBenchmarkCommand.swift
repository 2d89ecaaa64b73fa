import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import FeatureService
import FeatureServiceEngines
import Foundation
import Logging
import QueryLanguage

/// `statistics-benchmark`: grouped statistics the worker computes itself (the layer does not answer
/// `outStatistics`, an OGC collection never does), through the worker's engines in this process. One run
/// per repetition of `SUM`, `AVG` and `percentile_cont(0.5)` of `--field` grouped by `--group-by` over every
/// feature of one target; prints each run's wall time and this process's CPU, the peak RSS, and the rows as
/// `ROW group sum avg median` lines, which run-statistics-benchmark.sh compares with GDAL's.
@main
struct StatisticsBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statistics-benchmark",
        abstract: "Grouped statistics computed by the worker's engines, timed.")

    @Option(help: "arcgis or ogc.")
    var kind: String = "arcgis"

    @Option(help: "The layer URL (arcgis) or the landing page URL (ogc).")
    var url: String

    @Option(help: "The OGC collection id (with --kind ogc).")
    var collection: String?

    @Option(help: "The numeric field the statistics are taken of.")
    var field: String = "Roll_LandValue"

    @Option(name: .customLong("group-by"), help: "The field the rows are grouped by.")
    var groupBy: String = "UseType"

    @Option(help: "A where clause narrowing the features (ArcGIS SQL); default: every feature.")
    var `where`: String?

    @Option(help: "Measured runs; the median is printed with the others.")
    var repetitions: Int = 3

    func validate() throws {
        guard kind == "arcgis" || kind == "ogc" else { throw ValidationError("--kind is arcgis or ogc") }
        guard kind == "arcgis" || collection != nil else { throw ValidationError("--kind ogc needs --collection") }
        guard repetitions > 0 else { throw ValidationError("--repetitions must be positive") }
    }

    func run() async throws {
        // The worker's default limits (16 requests in flight per host).
        var logger = Logger(label: "statistics-benchmark")
        logger.logLevel = .warning
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let router = StandardEngines.router(
            httpClient: client, limits: StandardEngines.Limits(maxRequestsPerHost: 16, requestTimeout: .seconds(60)), logger: logger)
        let target = ServiceTarget(kind: kind == "ogc" ? .ogc : .arcgis, url: url, layers: collection.map { [$0] })
        let clause = try `where`.map { try WhereClause($0) }
        let query = ServiceQuery(
            whereClause: clause, result: .statistics,
            statistics: [
                StatisticDefinition(type: .sum, field: field, name: "total"),
                StatisticDefinition(type: .avg, field: field, name: "mean"),
                StatisticDefinition(type: .percentileCont, field: field, name: "median", percentile: 0.5),
            ],
            groupBy: [groupBy])
        let runs: TimedRuns<ServiceLayerResult>
        do {
            runs = try await timedRuns(repetitions) {
                let outcomes = await router.query([target], query, budget: .unlimited())
                guard let outcome = outcomes.first?.first else { throw BenchmarkError("no outcome") }
                switch outcome.result {
                case .success(let result): return result
                case .failure(let error): throw BenchmarkError("the query failed: \(error.code.rawValue): \(error.message)")
                }
            }
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
        let result = runs.last
        guard case .statistics(let rows) = result.selection else { throw BenchmarkError("no statistics") }
        output("RESULT wall_s=\(format(runs.medianWall, 3)) cpu_s=\(format(runs.medianCPU, 3)) "
            + "peak_rss_mib=\(format(Double(ProcessMeasures.peakRSSKiB()) / 1024, 1)) features=\(result.count) groups=\(rows.count) "
            + "computed_by=\(result.aggregatedBy?.rawValue ?? "?") runs=\(runs.wallsText)")
        for row in rows {
            let group = row.group.first.map { Self.text($0.value) } ?? ""
            output("ROW \(group)\t" + row.values.map { Self.text($0.value) }.joined(separator: "\t"))
        }
    }

    static func text(_ value: AttributeValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text
        case .date(let milliseconds): String(milliseconds)
        }
    }
}

