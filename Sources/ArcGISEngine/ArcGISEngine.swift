package import CurlHTTP
package import EngineExecution
package import FeatureService
package import Logging
import QueryLanguage

/// Queries ArcGIS FeatureServer and MapServer layers completely, correctly and concurrently.
///
/// One engine serves many queries at once: it caches layer metadata, bounds the requests in flight to each
/// host, retries what can succeed later, and checks that every result is complete. Queries are cancelled
/// the Swift way: cancel the calling task and every page it has in flight is aborted.
package final class ArcGISEngine: Sendable {
    package let configuration: ArcGISEngineConfiguration
    let transport: EngineTransport
    /// Layer and service metadata by normalised URL and credential identity (``QueryAuthentication/cacheKey(_:for:)``;
    /// ``clearMetadataCache()`` empties both, for tests).
    let layers: ExpiringCache<LayerMetadata>
    let services: ExpiringCache<ServiceMetadata>
    /// What every request carries because of the worker's credentials (``NoAuthentication`` for an embedder).
    let authenticator: any RequestAuthenticator
    /// Secret query parameters credentials added, kept out of every URL the engine logs or reports.
    let redactor = ParameterRedactor()
    /// Target URLs parsed already (``ParsedLayerURLs``).
    let parsedURLs = ParsedLayerURLs()
    /// Where HTTP exchanges and metadata lookups are counted (shared with the worker's other engines).
    let metrics: EngineMetrics

    /// An engine sending its requests through `httpClient` (shared; the caller shuts it down).
    package convenience init(
        httpClient: HTTPClient, configuration: ArcGISEngineConfiguration = ArcGISEngineConfiguration(), logger: Logger
    ) {
        self.init(httpClient: httpClient, configuration: configuration, logger: logger, authenticator: NoAuthentication())
    }

    /// An engine whose requests carry what `authenticator` says for each URL (the worker's credentials), counting
    /// into `metrics` (the worker's, shared by its engines).
    package init(
        httpClient: HTTPClient, configuration: ArcGISEngineConfiguration = ArcGISEngineConfiguration(), logger: Logger,
        authenticator: any RequestAuthenticator, metrics: EngineMetrics = EngineMetrics()
    ) {
        self.authenticator = authenticator
        self.configuration = configuration
        self.metrics = metrics
        self.transport = EngineTransport(
            client: httpClient, limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost), rules: .arcGIS,
            retry: configuration.retry, logger: logger, metrics: metrics)
        self.layers = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
        self.services = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
    }

    /// Runs `query` against one layer. The where clause and outFields are checked against the layer's fields
    /// before any query is sent. A features result holds at most
    /// ``ArcGISEngineConfiguration/maxFeaturesInMemory`` features unless the query sets `maxFeatures`.
    package func query(layer url: String, _ query: ServiceQuery) async throws(FeatureServiceError) -> ServiceLayerResult {
        let parsed = try parsedURLs.layerURL(url)
        guard parsed.layerId != nil else {
            throw FeatureServiceError(.invalidURL, "\(parsed.url) is a service URL; a layer URL ends in a layer id", layer: parsed.url)
        }
        // `run`, its errors mapped here as ``queryLayer(_:_:budget:)`` maps them.
        do {
            return try await EngineSpans.layer(parsed.url, engine: "arcgis", errorCode: Self.spanErrorCode) {
                try await run(query, on: parsed, budget: .unlimited())
            }
        } catch {
            throw Self.mappedError(error, layer: parsed.url)
        }
    }

    /// The outcomes of one target's layers, or the one failure of a target whose layers cannot be listed.
    /// Each layer gets its own outcome: one failing layer never fails the others.
    func queryTarget(_ target: ArcGISTarget, _ query: ServiceQuery, budget: ResultBudget) async -> [ServiceLayerOutcome] {
        do throws(FeatureServiceError) {
            // A layer URL or a list of sublayers (the usual target) is known without an `await`.
            let layers: [LayerURL]
            if let known = try knownLayers(of: target) {
                layers = known
            } else {
                layers = try await self.layers(of: target, credential: query.credential)
            }
            return await OrderedFanOut.map(layers) { layer in await self.queryLayer(layer, query, budget: budget) }
        } catch {
            return [ServiceLayerOutcome(url: error.layer, result: .failure(error))]
        }
    }

    /// One layer's outcome: ``run(_:on:budget:)``, its errors mapped as ``query(layer:_:)`` maps them.
    private func queryLayer(_ layer: LayerURL, _ query: ServiceQuery, budget: ResultBudget) async -> ServiceLayerOutcome {
        let result: Result<ServiceLayerResult, FeatureServiceError>
        do {
            if let id = layer.layerId, id < 0 {
                // A negative id from a target's `layers` fails as its URL does in `query(layer:)`.
                _ = try LayerURL(parsing: layer.url)
            }
            result = .success(
                try await EngineSpans.layer(layer.url, engine: "arcgis", errorCode: Self.spanErrorCode) {
                    try await run(query, on: layer, budget: budget)
                })
        } catch {
            result = .failure(Self.mappedError(error, layer: layer.url))
        }
        budget.progress?.layerFinished(ProgressLayer(url: layer.url, layerId: layer.layerId))
        return ServiceLayerOutcome(url: layer.url, result: result)
    }

    // MARK: Internals

    /// The layers a target stands for: the layer itself, the listed sublayers of a service, or every feature
    /// layer of a service (group layers hold no features and are skipped). Parsed once: each is queried as it is.
    func layers(of target: ArcGISTarget, credential: String? = nil) async throws(FeatureServiceError) -> [LayerURL] {
        if let known = try knownLayers(of: target) { return known }
        let parsed = try parsedURLs.layerURL(target.url)
        let service = try await Self.mapErrors(layer: parsed.url) {
            try await self.serviceMetadata(parsed, auth: self.authentication(credential))
        }
        return service.layers.filter(\.isQueryableFeatureLayer).map { parsed.layer($0.id) }
    }

    /// The layers of a target known without its service's metadata: the layer itself, or the listed
    /// sublayers; nil for a whole service (``layers(of:credential:)`` reads its layer list).
    func knownLayers(of target: ArcGISTarget) throws(FeatureServiceError) -> [LayerURL]? {
        let parsed = try parsedURLs.layerURL(target.url)
        if parsed.layerId != nil {
            guard target.layers == nil else {
                throw FeatureServiceError(.invalidURL, "\(parsed.url) is a layer URL; `layers` needs a service URL", layer: parsed.url)
            }
            return [parsed]
        }
        return target.layers.map { ids in ids.map { parsed.layer($0) } }
    }

    /// One layer's query. A count (a map view's usual question) is one request sent from here, without a
    /// ``LayerQueryRunner``; the metadata comes from the cache without an `await` when the credentials are
    /// known without asking (``QueryAuthentication/immediateCacheKey(_:for:)``).
    private func run(_ query: ServiceQuery, on url: LayerURL, budget: ResultBudget) async throws -> ServiceLayerResult {
        let auth = authentication(query.credential)
        let metadata: LayerMetadata
        if let key = auth.immediateCacheKey(url.url, for: url.url), let cached = try layers.freshValue(for: key) {
            metadata = cached
        } else {
            metadata = try await layerMetadata(url, auth: auth)
        }
        let clause = try QueryCheck.check(query, for: metadata)
        if query.result == .count {
            return try await LayerQueryRunner.count(
                query, clause: clause, layer: metadata, origin: url.origin, session: session(auth))
        }
        // An `if`, not a ternary: Swift 6.3.1's type checker crashes on this closure inside a ternary once async
        // closures are nonisolated(nonsending) by default.
        var related: (@Sendable () async throws -> RelatedTarget)?
        if query.result == .related {
            related = { @Sendable in try await self.relatedTarget(query, origin: metadata, url: url, auth: auth) }
        }
        let runner = LayerQueryRunner(
            transport: session(auth), layer: metadata, origin: url.origin, query: query,
            clause: clause, configuration: configuration, budget: budget, relatedTarget: related)
        return try await runner.run()
    }

    /// One query's requests: the engine's transport with `auth`.
    func session(_ auth: QueryAuthentication) -> ArcGISSession {
        ArcGISSession(transport: transport, auth: auth, configuration: configuration)
    }

    /// One query's credentials: the engine's authenticator with the credential the query picked.
    func authentication(_ credential: String?) -> QueryAuthentication {
        QueryAuthentication(authenticator, credential: credential, redactor: redactor)
    }

    /// A layer's metadata, cached per URL and per credential identity (``QueryAuthentication/cacheKey(_:for:)``):
    /// metadata one credential loaded never answers a caller using another, or none.
    func layerMetadata(_ url: LayerURL, auth: QueryAuthentication) async throws -> LayerMetadata {
        let key = try await Self.cacheKey(url, auth: auth)
        if let cached = try layers.freshValue(for: key) { return cached }
        let session = session(auth)
        return try await layers.value(for: key) {
            try await session.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                    layer: url.url, counter: nil) { body throws(FeatureServiceError) in
                try ArcGISResponse.layerMetadata(body, url: url.url)
            }
        }
    }

    /// A service's metadata, cached as ``layerMetadata(_:auth:)`` is.
    func serviceMetadata(_ url: LayerURL, auth: QueryAuthentication) async throws -> ServiceMetadata {
        let key = try await Self.cacheKey(url, auth: auth)
        let session = session(auth)
        return try await services.value(for: key) {
            try await session.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                    layer: url.url, counter: nil) { body throws(FeatureServiceError) in
                try ArcGISResponse.serviceMetadata(body, url: url.url)
            }
        }
    }

    private static func cacheKey(_ url: LayerURL, auth: QueryAuthentication) async throws -> String {
        do {
            return try await auth.cacheKey(url.url, for: url.url)
        } catch let failure as AuthenticationFailure {
            throw FeatureServiceError(failure, layer: url.url)
        }
    }

    /// Runs `body`, turning whatever it throws into an ``FeatureServiceError`` for `layer`.
    static func mapErrors<T>(layer: String, _ body: () async throws -> T) async throws(FeatureServiceError) -> T {
        do {
            return try await body()
        } catch {
            throw mappedError(error, layer: layer)
        }
    }

    /// Whatever a layer's query threw, as an ``FeatureServiceError`` for `layer` (synchronous, out of line: the
    /// `async` callers' frames stay small).
    @inline(never)
    static func mappedError(_ error: any Error, layer: String) -> FeatureServiceError {
        switch error {
        case let error as FeatureServiceError: error
        case let failure as AuthenticationFailure: FeatureServiceError(failure, layer: layer)
        case is CancellationError: FeatureServiceError(.cancelled, "the query of \(layer) was cancelled", layer: layer)
        case let error as HTTPError:
            FeatureServiceError(
                transfer: error, layer: ArcGISResponse.normalizedURL(layer), redact: ArcGISResponse.redactingTokens)
        default: FeatureServiceError(.transport, "the query of \(layer) failed: \(error)", layer: layer)
        }
    }
}

/// A feature service target: a layer URL, or a service URL with the sublayers to query (all feature
/// layers when `layers` is nil).
package struct ArcGISTarget: Sendable, Hashable {
    package var url: String
    package var layers: [Int]?

    package init(url: String, layers: [Int]? = nil) {
        self.url = url
        self.layers = layers
    }
}
