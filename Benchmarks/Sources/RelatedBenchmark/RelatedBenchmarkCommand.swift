import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import FeatureService
import FeatureServiceEngines
import Foundation
import Logging
import QueryLanguage

/// `related-benchmark`: the related records of a selection through the worker's engines in this process
/// (`result: related`). One run per repetition; prints each run's wall time and this process's CPU, the
/// peak RSS, whether the result is complete, who joined the records, and `PAIR origin relatedId` lines (after
/// the timings), which run-related-benchmark.sh compares with the peer's and with the ground truth.
@main
struct RelatedBenchmarkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "related-benchmark",
        abstract: "Related records read by the worker's engines, timed.")

    @Option(help: "The origin layer URL.")
    var url: String

    @Option(help: "The relationship's name.")
    var relationship: String = "Parcel_Assessments"

    @Option(help: "A where clause selecting the origins (ArcGIS SQL).")
    var `where`: String = "1=1"

    @Option(help: "Measured runs; the median is printed with the others.")
    var repetitions: Int = 3

    @Option(name: .customLong("pairs-out"), help: "Where to write the (origin, related object id) pairs, one per line.")
    var pairsOut: String?

    func validate() throws {
        guard repetitions > 0 else { throw ValidationError("--repetitions must be positive") }
    }

    func run() async throws {
        // The worker's default limits (16 requests in flight per host).
        var logger = Logger(label: "related-benchmark")
        logger.logLevel = .warning
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let router = StandardEngines.router(
            httpClient: client, limits: StandardEngines.Limits(maxRequestsPerHost: 16, requestTimeout: .seconds(60)), logger: logger)
        let query = ServiceQuery(
            whereClause: try WhereClause(`where`), result: .related,
            related: RelatedQuery(relationship: .name(relationship), outFields: ["*"]))
        let runs: TimedRuns<ServiceLayerResult>
        do {
            runs = try await timedRuns(repetitions) {
                let outcomes = await router.query([ServiceTarget(kind: .arcgis, url: url)], query, budget: .unlimited())
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
        guard case .related(let selection) = result.selection else { throw BenchmarkError("no related records") }
        output("RESULT wall_s=\(format(runs.medianWall, 3)) cpu_s=\(format(runs.medianCPU, 3)) "
            + "peak_rss_mib=\(format(Double(ProcessMeasures.peakRSSKiB()) / 1024, 1)) records=\(selection.recordCount) "
            + "origins=\(selection.groups.count) complete=\(result.isComplete) related_by=\(result.aggregatedBy?.rawValue ?? "?") "
            + "requests=\(result.requests) runs=\(runs.wallsText)")
        if let pairsOut {
            var text = ""
            for group in selection.groups {
                for record in group.records {
                    guard let id = Self.objectId(record) else { throw BenchmarkError("a record without OBJECTID") }
                    text += "\(group.objectId) \(id)\n"
                }
            }
            try text.write(toFile: pairsOut, atomically: true, encoding: .utf8)
        }
    }

    /// The related record's `OBJECTID`, read from its published JSON.
    static func objectId(_ record: [UInt8]) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(record)) as? [String: Any],
            let attributes = object["attributes"] as? [String: Any]
        else { return nil }
        return (attributes["OBJECTID"] as? NSNumber)?.intValue
    }
}

