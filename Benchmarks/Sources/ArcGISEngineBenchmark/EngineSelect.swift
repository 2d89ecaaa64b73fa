import ArcGISEngine
import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import Foundation
import Logging
import QueryLanguage
import FeatureService

/// `engine-select` (a worker of `selection`): a layer's whole selection (`ServiceQuery(result: .ids)`),
/// in this process alone, so the peak RSS printed is the client's.
///
/// The clock runs from creating the HTTP client to the result in hand (the engine sends the count and the
/// `returnIdsOnly` request at once, decodes and sorts the ids). The peak RSS is read right after, before the
/// ids are written to --ids-out; `baseline_rss_kb` is the peak before the query, for reference.
struct EngineSelect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine-select", abstract: "(worker) A layer's whole selection (object ids), through the engine.")

    @Option(help: "The layer URL.")
    var layer: String

    @Option(help: "A where clause (ArcGIS SQL); default: none (every feature).")
    var `where`: String?

    @Option(help: "Where to write the sorted object ids.")
    var idsOut: String

    @Option(help: "Log level of the engine.")
    var logLevel: String = "warning"

    func run() async throws {
        let logger = bootstrapLogging(logLevel)
        let clause: WhereClause?
        do {
            clause = try `where`.map { try WhereClause($0) }
        } catch {
            throw ValidationError("--where: \(error)")
        }
        let baseline = peakRSSKiB()
        let clock = ContinuousClock()
        let started = clock.now
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        let engine = ArcGISEngine(httpClient: client, logger: logger)
        let result: ServiceLayerResult
        do {
            result = try await engine.query(layer: layer, ServiceQuery(whereClause: clause, result: .ids))
        } catch {
            await client.shutdown()
            throw BenchmarkError("the engine's query failed: \(error.code): \(error.message)")
        }
        let finished = clock.now
        let peak = peakRSSKiB()
        await client.shutdown()

        guard case .objectIds(let ids) = result.selection else {
            throw BenchmarkError("the engine's ids query answered no ids")
        }
        try writeIDs(ids, to: idsOut)
        printResult([
            "seconds": format((finished - started).seconds, 6),
            "ids": String(ids.count),
            "count": String(result.count),
            "expected": String(result.count),
            "complete": String(result.isComplete),
            "requests": String(result.requests),
            "max_rss_kb": String(peak),
            "baseline_rss_kb": String(baseline),
            "ids_file": idsOut,
        ])
    }
}
