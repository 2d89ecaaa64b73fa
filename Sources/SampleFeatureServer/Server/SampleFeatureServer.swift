package import Logging
import Synchronization

/// A generated ArcGIS REST server on loopback: the LA County parcels FeatureServer (parcels and their
/// time-aware sales), a legacy
/// non-paginating parcels MapServer and the USA MapServer, with fault knobs, a token seam and statistics;
/// and an OGC API Features face over the same features plus a Daraa look-alike (``ogcURL``).
///
/// OGC routes, under the mount `/ogc` (or `/ogc-quirks/{quirk[,quirk...]}`, the same API with quirks on;
/// see ``ogcQuirkNames``): the landing page; `/api` (OpenAPI 3.0, declaring `limit`'s maximum, 10,000
/// unless `max-limit-N`); `/conformance`; `/collections` (with the global `crs` list each collection's
/// `"#/crs"` refers to); `/collections/{id}`; `/collections/{id}/queryables`; `/collections/{id}/items`
/// (`limit` default 10, clamped to the maximum; `offset`; `bbox` with `bbox-crs`; `crs`; `datetime`;
/// `name=value` for queryables; `filter` with `filter-lang=cql2-text` and `filter-crs`; `sortby` (`+f,-g`,
/// Part 8, declared with `/collections/{id}/sortables` unless a `sortby-*` quirk); `properties`;
/// `skipGeometry`; `ids`); and `/collections/{id}/items/{fid}`. `datetime` applies to collections with a
/// temporal extent; elsewhere it is checked and every feature matches (OGC Req C: features without time
/// match), or a 400 under the `pygeoapi-datetime` quirk. Feature ids are the OBJECTIDs as JSON integers, so the ArcGIS and OGC
/// faces select the same ids for the same clause. Bad parameters are HTTP 400 and unknown resources 404,
/// with `{"code":...,"description":...}`. Fault rules match OGC paths as they match ArcGIS ones.
///
/// Tests and benchmarks start one in process (``start(configuration:dataset:logger:)``) on an ephemeral
/// port and talk to it over real sockets; the `sample-feature-server` executable serves one from the command
/// line. The server speaks the protocol as ArcGIS does, including its quirks (HTTP 200 error bodies,
/// `exceededTransferLimit`, uncapped `returnIdsOnly`), so that clients are tested against the behaviour
/// they will meet. Feature-table queries (outStatistics with groupByFieldsForStatistics and percentiles,
/// returnDistinctValues, returnExtentOnly, orderByFields, `time=` on the time-aware
/// ``SampleLayer/parcelSales``) are gated per layer by ``LayerQueryOptions`` flags, with ``QueryQuirk``s to
/// imitate servers that misbehave.
package final class SampleFeatureServer: Sendable {
    /// The data every layer serves.
    package let dataset: SampleDataset
    /// The configuration the server started with (faults may have changed since: see ``faults``).
    package let configuration: SampleServerConfiguration
    /// The services directory: `http://host:port/arcgis/rest/services`.
    package let baseURL: String
    /// `http://host:port`.
    package let rootURL: String
    /// The HTTP layer (internal for ``httpStatistics``, a test hook in `ForTesting/`).
    let http: SampleHTTPServer
    private let handler: RequestHandler
    private let recorder: StatisticsRecorder
    private let injector: FaultInjector

    private init(
        dataset: SampleDataset, configuration: SampleServerConfiguration, http: SampleHTTPServer,
        handler: RequestHandler, recorder: StatisticsRecorder, injector: FaultInjector
    ) {
        self.dataset = dataset
        self.configuration = configuration
        self.http = http
        self.handler = handler
        self.recorder = recorder
        self.injector = injector
        rootURL = http.baseURL
        baseURL = http.baseURL + "/arcgis/rest/services"
    }

    /// Starts serving. Generates the data from the configuration's parcel count and seed unless `dataset`
    /// is given (share one dataset between servers: generation is the slow part of starting).
    package static func start(
        configuration: SampleServerConfiguration = SampleServerConfiguration(),
        dataset: SampleDataset? = nil,
        logger: Logger
    ) async throws -> SampleFeatureServer {
        let data = try dataset ?? SampleDataset(parcelCount: configuration.parcelCount, seed: configuration.seed)
        let recorder = StatisticsRecorder(recentRequestLimit: configuration.recentRequestLimit)
        let injector = FaultInjector(configuration.faults)
        let handler = RequestHandler(
            dataset: data, configuration: configuration, faults: injector, recorder: recorder, logger: logger)
        let http = try await SampleHTTPServer.start(host: configuration.host, port: configuration.port, logger: logger) { request in
            try await handler.handle(request)
        }
        handler.origin.withLock { $0 = http.baseURL }
        if let security = configuration.security {
            security.authority.attach(origin: http.baseURL, role: security.role)
        }
        let server = SampleFeatureServer(
            dataset: data, configuration: configuration, http: http, handler: handler, recorder: recorder, injector: injector)
        logger.info(
            "sample feature server listening",
            metadata: ["url": "\(server.baseURL)", "parcels": "\(data.parcelCount)", "seed": "\(data.seed)"])
        return server
    }

    /// The OGC API Features landing page: `http://host:port/ogc`.
    package var ogcURL: String { rootURL + "/ogc" }

    /// The landing page of the OGC face with quirks on, e.g. `ogcURL(quirks: ["cursor", "max-limit-7"])` is
    /// `http://host:port/ogc-quirks/cursor,max-limit-7`. See ``ogcQuirkNames``.
    package func ogcURL(quirks: [String]) -> String {
        quirks.isEmpty ? ogcURL : rootURL + "/ogc-quirks/" + quirks.joined(separator: ",")
    }

    /// The names of the OGC face's quirks (`max-limit-7` stands for `max-limit-N`, any N of at least 1):
    /// `no-filter`, `filter-ignored`, `cursor`, `relative-links`, `max-limit-N`, `strict-limit`,
    /// `spurious-next`, `empty-page`, `duplicates`, `no-number-matched`, `wrong-number-matched`,
    /// `other-origin`, `next-cycle`, `sortby-ignored`, `sortby-undeclared`, `pygeoapi-datetime`.
    package static var ogcQuirkNames: [String] { OGCQuirk.names }

    /// The OGC collection id of an ArcGIS layer served on the OGC face too (nil for the legacy parcels and
    /// the raster layer): `LA_County_Parcels`, `USA_Cities`, `USA_Highways`, `USA_States`, `USA_Counties`,
    /// `LA_County_Parcel_Sales`.
    package static func ogcCollectionID(_ layer: SampleLayer) -> String? { OGCCatalog.layerCollectionIDs[layer] }

    /// The port the server listens on.
    package var port: Int { http.port }

    /// A service's URL, e.g. `…/arcgis/rest/services/USA/MapServer`.
    package func serviceURL(_ service: SampleService) -> String { baseURL + "/" + service.path }

    /// A layer's URL, e.g. `…/arcgis/rest/services/LA_County_Parcels/FeatureServer/0`.
    package func layerURL(_ layer: SampleLayer) -> String { baseURL + "/" + layer.path }

    /// A layer's query URL (`…/0/query`).
    package func queryURL(_ layer: SampleLayer) -> String { layerURL(layer) + "/query" }

    /// What the server has seen so far.
    package var statistics: SampleServerStatistics { recorder.snapshot }

    /// The most service requests that were answered while in progress at once: how a test checks a client's
    /// per-host limit (``AnsweredServiceSpans`` says why requests the client abandoned are left out).
    package var mostAnsweredServiceRequestsAtOnce: Int { recorder.mostAnsweredServiceRequestsAtOnce }

    /// Clears the statistics and the request log (not the faults' occurrence counts).
    package func resetStatistics() { recorder.reset() }

    /// The fault rules in force.
    package var faults: [FaultRule] { injector.rules }

    /// Replaces the fault rules on the running server; their occurrence counts and random generators
    /// start afresh. `setFaults([])` turns faults off.
    package func setFaults(_ rules: [FaultRule]) { injector.set(rules) }

    /// Adds one fault rule after the others.
    package func addFault(_ rule: FaultRule) { injector.add(rule) }

    /// Waits until `condition` holds for the statistics, polling, for at most `timeout`; returns whether it
    /// held. Tests wait for what the server saw instead of sleeping for a guessed time. The default bound only
    /// stops a hang: every caller waits for something that must happen, and in the test process that starts a
    /// thousand tests at once on two cores a task's next step can wait tens of seconds for a thread (a 30 s
    /// default ran out before a worker's first request came).
    package func waitUntil(
        timeout: Duration = .seconds(120), _ condition: (SampleServerStatistics) -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition(statistics) {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return condition(statistics) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// Stops accepting, closes every connection (cancelling handlers still running) and returns when done.
    package func shutdown() async {
        await http.shutdown()
    }
}
