import ArcGISEngine
import ArgumentParser
import BenchmarkSupport
import CurlHTTP
import FeatureGeometry
import Foundation
import Logging
import FeatureService

/// `engine-download` (a worker of `download`): every feature of a layer, all attributes and geometry in
/// WGS 84, through `ArcGISEngine`, written as one GeoJSON FeatureCollection with `GeoJSONFeatures`.
///
/// The clock runs from creating the HTTP client to the GeoJSON file being written; the phases are timed too
/// (query = metadata, count and every page fetched and decoded; geojson = encoding; write = the file), and
/// the peak RSS is read at the end. Prints one RESULT line; the sorted ids go to --ids-out afterwards.
struct EngineDownload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "engine-download", abstract: "(worker) Every feature of a layer as GeoJSON, through the engine.")

    @Option(help: "The layer URL.")
    var layer: String

    @Option(help: "Where to write the FeatureCollection.")
    var geojsonOut: String

    @Option(help: "Where to write the sorted object ids.")
    var idsOut: String

    @Option(help: "ArcGISEngineConfiguration.pageConcurrency; default: the engine's.")
    var pageConcurrency: Int?

    @Option(help: "Log level of the engine.")
    var logLevel: String = "warning"

    func run() async throws {
        let logger = bootstrapLogging(logLevel)
        let clock = ContinuousClock()
        let started = clock.now
        let client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        var configuration = ArcGISEngineConfiguration()
        if let pageConcurrency { configuration.pageConcurrency = pageConcurrency }
        let engine = ArcGISEngine(httpClient: client, configuration: configuration, logger: logger)
        let query = ServiceQuery(
            outFields: ["*"], returnGeometry: true, outSpatialReference: .wgs84, result: .features)
        let result: ServiceLayerResult
        do {
            result = try await engine.query(layer: layer, query)
        } catch {
            await client.shutdown()
            throw BenchmarkError("the engine's query failed: \(error.code): \(error.message)")
        }
        await client.shutdown()
        let queried = clock.now
        guard case .features(let features) = result.selection else {
            throw BenchmarkError("the engine's GeoJSON query answered no GeoJSON features")
        }
        let bytes = features.featureCollection()
        let encoded = clock.now
        try writeFile(bytes, to: geojsonOut)
        let written = clock.now
        let peak = peakRSSKiB()

        try writeIDs(features.objectIds, to: idsOut)
        printResult([
            "seconds": format((written - started).seconds, 6),
            "features": String(features.count),
            "requests": String(result.requests),
            "retries": String(result.retries),
            "max_rss_kb": String(peak),
            "geojson_bytes": String(bytes.count),
            "complete": String(result.isComplete),
            "expected": String(result.count),
            "incomplete_reason": result.incompleteReason?.rawValue ?? "-",
            "query_seconds": format((queried - started).seconds, 6),
            "geojson_seconds": format((encoded - queried).seconds, 6),
            "write_seconds": format((written - encoded).seconds, 6),
            "ids_file": idsOut,
        ])
    }
}
