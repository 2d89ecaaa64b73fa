import ArcGISEngine
import CurlHTTP
import FeatureGeometry
import Logging
import SampleFeatureServer

/// Starts the sample feature server and an engine for a test, over real loopback sockets.
enum EngineTestSupport {
    /// Large enough that the seed extent holds several pages per clause, small enough for debug builds.
    static let parcelCount = 150_000

    static let logger: Logger = {
        var logger = Logger(label: "arcgis-engine-tests")
        logger.logLevel = .warning
        return logger
    }()

    /// One dataset for the whole test process: generation is the slow part of starting a server.
    static func dataset() throws -> SampleDataset {
        try SampleDataset.shared(parcelCount: parcelCount, seed: 7)
    }

    /// Fast retries, so fault tests do not wait on production backoff.
    static let fastRetries = ArcGISEngineConfiguration.RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(5), maxDelay: .milliseconds(40), maxRetryAfter: .seconds(2))

    static func withEngine<T>(
        faults: [FaultRule] = [],
        capabilityOverrides: [SampleLayer: String] = [:],
        configuration: ArcGISEngineConfiguration = ArcGISEngineConfiguration(retry: fastRetries),
        _ body: (SampleFeatureServer, ArcGISEngine) async throws -> T
    ) async throws -> T {
        let server = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(
                parcelCount: parcelCount, seed: 7, faults: faults, capabilityOverrides: capabilityOverrides),
            dataset: try dataset(), logger: logger)
        let client = try HTTPClient(logger: logger)
        let engine = ArcGISEngine(httpClient: client, configuration: configuration, logger: logger)
        do {
            let result = try await body(server, engine)
            await client.shutdown()
            await server.shutdown()
            return result
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
    }

    /// The seed app's map extent as a query geometry.
    static var seedExtent: Geometry { .envelope(SampleDataset.seedExtent) }

    static func ids(_ result: LayerQueryResult) -> [Int] {
        (result.objectIds ?? []).map { Int($0) }
    }
}

extension LayerOutcome {
    var success: LayerQueryResult? {
        if case .success(let result) = result { return result }
        return nil
    }

    var failure: ArcGISError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
