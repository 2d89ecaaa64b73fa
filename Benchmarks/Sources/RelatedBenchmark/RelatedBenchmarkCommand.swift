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

    /// The related record's `OBJECTID`, read from its published JSON by a byte search (a JSON parser per record
    /// would cost more than the query, and this process's time is measured whole).
    static func objectId(_ record: [UInt8]) -> Int? {
        let key = Array(#""OBJECTID":"#.utf8)
        guard record.count > key.count else { return nil }
        for start in 0...(record.count - key.count) where record[start] == key[0] {
            guard Array(record[start..<start + key.count]) == key else { continue }
            var value = 0
            var index = start + key.count
            var digits = 0
            while index < record.count, let digit = record[index].wholeNumberDigit {
                value = value * 10 + digit
                index += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        return nil
    }
}

extension UInt8 {
    /// The decimal digit this ASCII byte spells, if it is one.
    fileprivate var wholeNumberDigit: Int? { (48...57).contains(self) ? Int(self) - 48 : nil }
}
