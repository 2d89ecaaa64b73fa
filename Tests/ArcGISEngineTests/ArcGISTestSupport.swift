import FeatureQuerySupport
import CurlHTTP
import FeatureGeometry
import Logging
import SampleFeatureServer

import EngineExecution
import FeatureService

@testable import ArcGISEngine

/// Starts the sample feature server and an engine for a test, over real loopback sockets. Named for the ArcGIS
/// engine's suites, not `EngineTestSupport`: that is the target both engines' suites share.
enum ArcGISTestSupport {
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
    static let fastRetries = RetrySchedule(
        maxAttempts: 4, baseDelay: .milliseconds(5), maxDelay: .milliseconds(40), maxRetryAfter: .seconds(2))

    /// The body of a plain GET to `url` (a status other than 200 throws).
    static func fetch(_ url: String) async throws -> [UInt8] {
        let client = try HTTPClient(logger: Self.logger)
        do {
            let response = try await client.execute(HTTPRequest(url: url))
            await client.shutdown()
            guard response.status == 200 else { throw FeatureServiceError(.httpStatus, "\(url): HTTP \(response.status)", layer: url) }
            return response.body
        } catch {
            await client.shutdown()
            throw error
        }
    }

    static func withEngine<T>(
        faults: [FaultRule] = [],
        capabilityOverrides: [SampleLayer: String] = [:],
        queryOptions: [String] = [], queryQuirks: [String] = [],
        configuration: ArcGISEngineConfiguration = ArcGISEngineConfiguration(retry: fastRetries),
        authorizer: SampleServerAuthorizer? = nil,
        authenticator: any RequestAuthenticator = NoAuthentication(),
        logger: Logger = ArcGISTestSupport.logger,
        _ body: (SampleFeatureServer, ArcGISEngine) async throws -> T
    ) async throws -> T {
        var serverConfiguration = SampleServerConfiguration(
            parcelCount: parcelCount, seed: 7, faults: faults, capabilityOverrides: capabilityOverrides)
        serverConfiguration.authorizer = authorizer
        try serverConfiguration.applyQuerySpecs(options: queryOptions, quirks: queryQuirks)
        let server = try await SampleFeatureServer.start(
            configuration: serverConfiguration, dataset: try dataset(), logger: Self.logger)
        let client = try HTTPClient(logger: Self.logger)
        let engine = ArcGISEngine(httpClient: client, configuration: configuration, logger: logger, authenticator: authenticator)
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

    /// The ids a result selected, whatever its form (none for a count).
    static func ids(_ result: ServiceLayerResult) -> [Int] {
        switch result.selection {
        case .countOnly, .catalog, .statistics, .extent, .distinct, .related, .attachments, .stored: []
        case .objectIds(let ids): ids.map { Int($0) }
        case .features(let features): features.objectIds.map { Int($0) }
        case .featureIds(let ids): ids.compactMap { $0.flatMap { Int($0.description) } }
        }
    }
}

extension LayerSelection {
    /// Whether only a count was selected.
    var isCountOnly: Bool {
        if case .countOnly = self { return true }
        return false
    }

    /// GeoJSON features, when that is what was selected.
    var geoJSON: GeoJSONFeatureList? {
        if case .features(let features) = self { return features }
        return nil
    }
}

extension GeoJSONFeatureList {
    /// Each feature parsed, in the list's order.
    func parsed() throws -> [ParsedJSON] { try json.map { try ParsedJSON(parsing: Array($0)) } }
}

extension FeatureGeoJSON {
    /// A `FeatureCollection` of `features`, written as the engine writes each feature.
    static func featureCollection(_ features: [Feature], fieldOrder: [String], layer: String) throws(FeatureServiceError) -> String {
        var output = #"{"type":"FeatureCollection","features":["#
        for (index, feature) in features.enumerated() {
            if index > 0 { output += "," }
            try write(feature, fieldOrder: fieldOrder, layer: layer, to: &output)
        }
        output += "]}"
        return output
    }
}

extension ArcGISEngine {
    /// The seam's query of ArcGIS targets, its outcomes in one list (targets' order, then layers'), without a
    /// result budget: how the engine's tests fan out.
    func query(_ targets: [ArcGISTarget], _ query: ServiceQuery) async -> [ServiceLayerOutcome] {
        let seamTargets = targets.map { ServiceTarget(kind: .arcgis, url: $0.url, layers: $0.layers?.map(String.init)) }
        return await self.query(seamTargets, query, budget: .unlimited()).flatMap { $0 }
    }
}

extension ServiceLayerOutcome {
    var success: ServiceLayerResult? {
        if case .success(let result) = result { return result }
        return nil
    }

    var failure: FeatureServiceError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}
