public import ArgumentParser
import Dispatch
import Foundation
public import Logging
import SampleFeatureServer

/// `sample-feature-server`: the generated ArcGIS services on loopback until SIGINT or SIGTERM.
@main
struct SampleFeatureServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sample-feature-server",
        abstract: "Serve generated ArcGIS REST services (LA County parcels, USA) and OGC API Features with fault knobs.",
        discussion: """
            Prints the services' base URL (ending in /arcgis/rest/services) as the first line of standard \
            output, then serves until SIGINT or SIGTERM. Logs go to standard error.

            Layers: LA_County_Parcels/FeatureServer/0 (paginating), LA_County_Parcels/FeatureServer/1 (parcel sales, \
            time-aware), LA_County_Parcels/FeatureServer/2-3 (tables Parcel_Assessments and Parcel_Owners, related \
            to the parcels: queryRelatedRecords), LA_County_Parcels_Legacy/MapServer/0 (no \
            pagination), USA/MapServer/0-3 (cities, highways, states, counties; states relate to counties), \
            USA/MapServer/4 (raster, not queryable). Parcels and cities have attachments (queryAttachments).

            OGC API Features (Parts 1-3, CQL2) on the same server: landing page /ogc (logged as ogcURL). \
            Collections LA_County_Parcels, USA_Cities, USA_Highways, USA_States, USA_Counties, LA_County_Parcel_Sales (the ArcGIS \
            layers' features, ids = OBJECTID) and the Daraa look-alike (AeronauticCrv, AgricultureSrf, ..., \
            TransportationGroundCrv). /ogc-quirks/{quirk[,quirk...]} serves the same API with quirks: \
            \(SampleFeatureServer.ogcQuirkNames.joined(separator: ", ")) (max-limit-N for any N).

            --fault: \(FaultRule.specHelp)

            --secure serves the same services with token security (docs/sample-server-security.md): the \
            portal at /portal/sharing/rest (generateToken, oauth2/token, oauth2/authorize, oauth2/revokeToken, \
            info), or with --security-role standalone a server token service at /arcgis/tokens/generateToken; \
            the folder /arcgis/rest/services/Secured/... wants a token (X-Esri-Authorization: Bearer, or \
            token=) while the public paths stay public; /ogc-secured wants an API key (X-API-Key). Knobs and \
            counters: GET or POST /_sample/security. Default users (test values): viewer/viewer-password, \
            outsider/outsider-password (403 everywhere). Default OAuth clients: sample-app (secret \
            sample-app-secret) and sample-public-app (PKCE, no secret), redirect URIs \
            http://127.0.0.1:8765/callback and urn:ietf:wg:oauth:2.0:oob. Default ArcGIS API key \
            \(SampleTokenAuthority.defaultAPIKey); OGC API key \(SampleSecurity.defaultOGCAPIKey). --federated-port also starts a server federated with the \
            portal and prints its base URL as the second line.
            """
    )

    @Option(help: "Address to bind.")
    var host = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free port.")
    var port = 0

    @Option(help: "Number of parcels to generate.")
    var parcels = SampleDataset.defaultParcelCount

    @Option(help: "Seed of the generated data (same seed and parcel count, same data).")
    var seed: UInt64 = 1

    @Option(help: "Latency added to every request, in milliseconds.")
    var latencyMs = 0

    @Option(help: "Fraction (0-1) of query requests answered with HTTP 500, drawn with --fault-seed.")
    var errorRate: Double = 0

    @Option(help: "Cap every query page at this many features (below maxRecordCount), as a trimming server does.")
    var shortPages: Int?

    @Option(help: "Seed of --error-rate's generator.")
    var faultSeed: UInt64 = 1

    @Option(name: .customLong("fault"), help: "A fault rule (repeatable): KIND[:OPTION=VALUE,...]; see below.")
    var faults: [String] = []

    @Option(name: .customLong("capability"), help: "Publish a layer with other capabilities (repeatable), e.g. LA_County_Parcels/FeatureServer/0=Map.")
    var capabilities: [String] = []

    @Option(
        name: .customLong("query-option"),
        help: "A query capability flag (repeatable): [LAYER_PATH=]FLAG=true|false, FLAG one of \(LayerQueryOptions.flagNames.joined(separator: ", ")); per-layer settings add to server-wide ones.")
    var queryOptions: [String] = []

    @Option(
        name: .customLong("query-quirk"),
        help: "A query quirk (repeatable): [LAYER_PATH=]QUIRK, QUIRK one of \(QueryQuirk.allCases.map(\.rawValue).joined(separator: ", ")).")
    var queryQuirks: [String] = []

    @OptionGroup(title: "Security")
    var security: SecurityOptions

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0-65535") }
        guard parcels >= 1 else { throw ValidationError("--parcels must be at least 1") }
        guard latencyMs >= 0 else { throw ValidationError("--latency-ms must not be negative") }
        guard (0...1).contains(errorRate) else { throw ValidationError("--error-rate must be between 0 and 1") }
        _ = try faultRules()
        _ = try capabilityOverrides()
        _ = try queryConfigured(SampleServerConfiguration())
        try security.validate()
    }

    func run() async throws {
        var logger = Logger(label: "sample-feature-server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        let stop = SignalWaiter(signals: [SIGINT, SIGTERM])
        let secured = try security.security()
        let configuration = try queryConfigured(SampleServerConfiguration(
            host: host, port: port, parcelCount: parcels, seed: seed, faults: try faultRules(), security: secured,
            capabilityOverrides: try capabilityOverrides()))
        let started = ContinuousClock.now
        let server = try await SampleFeatureServer.start(configuration: configuration, logger: logger)
        var federated: SampleFeatureServer?
        if let secured, let federatedPort = security.federatedPort {
            var federation = configuration
            federation.port = federatedPort
            federation.security = SampleSecurity(
                authority: secured.authority, role: .federated, securesEverything: secured.securesEverything, ogcAPIKeys: secured.ogcAPIKeys)
            federated = try await SampleFeatureServer.start(configuration: federation, dataset: server.dataset, logger: logger)
        }
        let elapsed = ContinuousClock.now - started
        FileHandle.standardOutput.write(Data((([server.baseURL] + (federated.map { [$0.baseURL] } ?? [])).joined(separator: "\n") + "\n").utf8))
        logger.info(
            "ready",
            metadata: [
                "startup": "\(elapsed.formatted(.units(allowed: [.seconds, .milliseconds])))",
                "parcels": "\(server.dataset.parcelCount)",
                "ogcURL": "\(server.ogcURL)",
                "parcelBytes": "\(server.dataset.parcelMemoryFootprint)",
                "portalURL": "\(server.portalURL ?? "-")",
                "tokenServicesURL": "\(server.tokenServicesURL ?? "-")",
                "federatedURL": "\(federated?.baseURL ?? "-")",
            ])
        let signal = await stop.wait()
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        await federated?.shutdown()
        await server.shutdown()
    }

    private func faultRules() throws -> [FaultRule] {
        var rules: [FaultRule] = []
        if latencyMs > 0 { rules.append(FaultRule(.latency(milliseconds: latencyMs))) }
        if errorRate > 0 {
            rules.append(FaultRule(.http500, pathContains: "/query", trigger: .probability(errorRate, seed: faultSeed)))
        }
        if let shortPages {
            guard shortPages >= 1 else { throw ValidationError("--short-pages must be at least 1") }
            rules.append(FaultRule(.shortPages(maximum: shortPages), pathContains: "/query"))
        }
        for spec in faults {
            do {
                rules.append(try FaultRule(spec: spec))
            } catch {
                throw ValidationError("--fault \(spec): \(error.message)")
            }
        }
        return rules
    }

    private func capabilityOverrides() throws -> [SampleLayer: String] {
        var overrides: [SampleLayer: String] = [:]
        for item in capabilities {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let layer = SampleLayer(rawValue: String(parts[0])) else {
                throw ValidationError("--capability \(item): expected LAYER_PATH=CAPABILITIES with a layer path such as LA_County_Parcels/FeatureServer/0")
            }
            overrides[layer] = String(parts[1])
        }
        return overrides
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}

/// Waits for the first of some signals: they are ignored by default handling and delivered through
/// Dispatch sources instead, so the server shuts down cleanly and the process exits 0.
final class SignalWaiter {
    private let sources: [any DispatchSourceSignal]
    private let stream: AsyncStream<Int32>

    init(signals: [Int32]) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        sources = signals.map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    /// The first signal received.
    func wait() async -> Int32 {
        for await number in stream { return number }
        return 0
    }
}
