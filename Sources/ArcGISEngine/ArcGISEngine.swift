package import CurlHTTP
package import EngineExecution
import FeatureService
package import Logging
import QueryLanguage

/// Queries ArcGIS FeatureServer and MapServer layers completely, correctly and concurrently.
///
/// One engine serves many queries at once: it caches layer metadata, bounds the requests in flight to each
/// host, retries what can succeed later, and checks that every result is complete. Queries are cancelled
/// the Swift way: cancel the calling task and every page it has in flight is aborted.
package final class ArcGISEngine: Sendable {
    package let configuration: ArcGISEngineConfiguration
    let transport: ArcGISTransport
    /// Layer and service metadata by normalised URL and credential identity (``QueryAuthentication/cacheKey(_:for:)``;
    /// ``clearMetadataCache()`` empties both, for tests).
    let layers: ExpiringCache<LayerMetadata>
    let services: ExpiringCache<ServiceMetadata>
    /// Fresh entries of ``layers`` in this module's types (``FreshLayerMetadata``).
    let freshLayers = FreshLayerMetadata()
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
        self.transport = ArcGISTransport(
            client: httpClient, limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost),
            configuration: configuration, logger: logger, metrics: metrics)
        self.layers = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
        self.services = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
    }

    /// Runs `query` against one layer. The where clause and outFields are checked against the layer's fields
    /// before any query is sent. A features result holds at most
    /// ``ArcGISEngineConfiguration/maxFeaturesInMemory`` features unless the query sets `maxFeatures`.
    package func query(layer url: String, _ query: FeatureQuery) async throws(ArcGISError) -> LayerQueryResult {
        let parsed = try parsedURLs.layerURL(url)
        guard parsed.layerId != nil else {
            throw ArcGISError(.invalidURL, "\(parsed.url) is a service URL; a layer URL ends in a layer id", layer: parsed.url)
        }
        // `run` itself, errors mapped here: one `async` call fewer per query.
        do {
            return try await EngineSpans.layer(parsed.url, engine: "arcgis", errorCode: Self.spanErrorCode) {
                try await run(query, on: parsed, budget: .unlimited())
            }
        } catch {
            throw Self.mappedError(error, layer: parsed.url)
        }
    }

    /// Runs `query` against every layer of `targets` at once. Each layer gets its own outcome: one failing
    /// layer (or one target whose service cannot be read) never fails the others. Outcomes follow the order
    /// of the targets and their layers. Features are bounded per layer as in ``query(layer:_:)``.
    package func query(_ targets: [ArcGISTarget], _ query: FeatureQuery) async -> [LayerOutcome] {
        if mayExceedLayerLimit(targets), let refusal = await refusalOverLayerLimit(targets) { return refusal }
        let budget = ResultBudget.unlimited()
        // One target (the usual request) runs in this task: a task group and a child task per query cost
        // more than the rest of the fan-out.
        if targets.count == 1 { return await queryTarget(targets[0], query, budget: budget) }
        return await withTaskGroup(of: (Int, [LayerOutcome]).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    // The tuple after the call, as in `queryLayers` (Swift 6.3.1 -O miscompiles the other form).
                    let layerOutcomes = await self.queryTarget(target, query, budget: budget)
                    return (index, layerOutcomes)
                }
            }
            var outcomes = [[LayerOutcome]](repeating: [], count: targets.count)
            for await (index, layerOutcomes) in group { outcomes[index] = layerOutcomes }
            return outcomes.flatMap { $0 }
        }
    }

    /// The outcomes of one target's layers, or the one failure of a target whose layers cannot be listed.
    func queryTarget(_ target: ArcGISTarget, _ query: FeatureQuery, budget: ResultBudget) async -> [LayerOutcome] {
        let layerOutcomes: [LayerOutcome]
        do throws(ArcGISError) {
            // A layer URL or a list of sublayers (the usual target) is known without an `await`.
            let layers: [LayerURL]
            if let known = try knownLayers(of: target) {
                layers = known
            } else {
                layers = try await self.layers(of: target, credential: query.credential)
            }
            layerOutcomes = await queryLayers(layers, query, budget: budget)
        } catch {
            layerOutcomes = [LayerOutcome(url: error.layer, result: .failure(error))]
        }
        return layerOutcomes
    }

    private func queryLayers(_ layers: [LayerURL], _ query: FeatureQuery, budget: ResultBudget) async -> [LayerOutcome] {
        if layers.count == 1 { return [await queryLayer(layers[0], query, budget: budget)] }
        return await withTaskGroup(of: (Int, LayerOutcome).self) { group in
            for (index, layer) in layers.enumerated() {
                group.addTask {
                    // The outcome first, the tuple after: Swift 6.3.1's optimizer miscompiles
                    // `return (index, X(.success(try await ...)))` inside a do/catch in a child task (the
                    // captured index comes back wrong, so layers went missing from fan-out results or the
                    // store below trapped out of range) in release builds only. Reproducer and commands:
                    // docs/swift-6.3.1-miscompile/ (check it with a new toolchain before removing this).
                    let outcome = await self.queryLayer(layer, query, budget: budget)
                    return (index, outcome)
                }
            }
            var outcomes = [LayerOutcome?](repeating: nil, count: layers.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
    }

    /// One layer's outcome. Calls ``run(_:on:budget:)`` itself, errors mapped as ``query(layer:_:)`` maps
    /// them: one `async` call fewer per layer.
    private func queryLayer(_ layer: LayerURL, _ query: FeatureQuery, budget: ResultBudget) async -> LayerOutcome {
        let result: Result<LayerQueryResult, ArcGISError>
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
        return LayerOutcome(url: layer.url, result: result)
    }

    // MARK: Internals

    /// The layers a target stands for: the layer itself, the listed sublayers of a service, or every feature
    /// layer of a service (group layers hold no features and are skipped). Parsed once: each is queried as it is.
    func layers(of target: ArcGISTarget, credential: String? = nil) async throws(ArcGISError) -> [LayerURL] {
        if let known = try knownLayers(of: target) { return known }
        let parsed = try parsedURLs.layerURL(target.url)
        let service = try await Self.mapErrors(layer: parsed.url) {
            try await self.serviceMetadata(parsed, auth: self.authentication(credential))
        }
        return service.layers.filter(\.isQueryableFeatureLayer).map { parsed.layer($0.id) }
    }

    /// The layers of a target known without its service's metadata: the layer itself, or the listed
    /// sublayers; nil for a whole service (``layers(of:credential:)`` reads its layer list).
    func knownLayers(of target: ArcGISTarget) throws(ArcGISError) -> [LayerURL]? {
        let parsed = try parsedURLs.layerURL(target.url)
        if parsed.layerId != nil {
            guard target.layers == nil else {
                throw ArcGISError(.invalidURL, "\(parsed.url) is a layer URL; `layers` needs a service URL", layer: parsed.url)
            }
            return [parsed]
        }
        return target.layers.map { ids in ids.map { parsed.layer($0) } }
    }

    /// One layer's query. A count (a map view's usual question) is one request sent from here, without a
    /// ``LayerQueryRunner``; the metadata comes from the cache without an `await` when the credentials are
    /// known without asking (``QueryAuthentication/immediateCacheKey(_:for:)``).
    private func run(_ query: FeatureQuery, on url: LayerURL, budget: ResultBudget) async throws -> LayerQueryResult {
        let auth = authentication(query.credential)
        let metadata: LayerMetadata
        if let key = auth.immediateCacheKey(url.url, for: url.url), let cached = try freshLayerMetadata(key) {
            metadata = cached
        } else {
            metadata = try await layerMetadata(url, auth: auth)
        }
        let clause = try QueryCheck.check(query, for: metadata)
        if query.result == .count {
            return try await LayerQueryRunner.count(
                query, clause: clause, layer: metadata, origin: url.origin, transport: transport, auth: auth)
        }
        let runner = LayerQueryRunner(
            transport: ArcGISSession(transport: transport, auth: auth), layer: metadata, origin: url.origin, query: query,
            clause: clause, configuration: configuration, budget: budget)
        return try await runner.run()
    }

    /// The layer metadata cached fresh under `key`, from ``freshLayers`` or else from ``layers`` (then kept in
    /// ``freshLayers`` too); nil when it has to be loaded. Throws `CancellationError` for a cancelled task, as
    /// the cache does.
    private func freshLayerMetadata(_ key: String) throws -> LayerMetadata? {
        if Task.isCancelled { throw CancellationError() }
        let (fresh, generation) = freshLayers.metadata(for: key)
        if let fresh {
            metrics.cache.hit()
            return fresh
        }
        guard let entry = try layers.freshEntry(for: key) else { return nil }
        freshLayers.store(entry.value, expires: entry.expires, for: key, generation: generation)
        return entry.value
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
        let transport = self.transport
        return try await layers.value(for: key) {
            try await transport.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                      layer: url.url, counter: nil, auth: auth) { body throws(ArcGISError) in
                try ArcGISResponse.layerMetadata(body, url: url.url)
            }
        }
    }

    /// A service's metadata, cached as ``layerMetadata(_:auth:)`` is.
    func serviceMetadata(_ url: LayerURL, auth: QueryAuthentication) async throws -> ServiceMetadata {
        let key = try await Self.cacheKey(url, auth: auth)
        let transport = self.transport
        return try await services.value(for: key) {
            try await transport.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                      layer: url.url, counter: nil, auth: auth) { body throws(ArcGISError) in
                try ArcGISResponse.serviceMetadata(body, url: url.url)
            }
        }
    }

    private static func cacheKey(_ url: LayerURL, auth: QueryAuthentication) async throws -> String {
        do {
            return try await auth.cacheKey(url.url, for: url.url)
        } catch let failure as AuthenticationFailure {
            throw ArcGISError(failure, layer: url.url)
        }
    }

    /// Runs `body`, turning whatever it throws into an ``ArcGISError`` for `layer`.
    static func mapErrors<T>(layer: String, _ body: () async throws -> T) async throws(ArcGISError) -> T {
        do {
            return try await body()
        } catch {
            throw mappedError(error, layer: layer)
        }
    }

    /// Whatever a layer's query threw, as an ``ArcGISError`` for `layer` (synchronous, out of line: the
    /// `async` callers' frames stay small).
    @inline(never)
    static func mappedError(_ error: any Error, layer: String) -> ArcGISError {
        switch error {
        case let error as ArcGISError: error
        case let failure as AuthenticationFailure: ArcGISError(failure, layer: layer)
        case is CancellationError: ArcGISError(.cancelled, "the query of \(layer) was cancelled", layer: layer)
        case let error as HTTPError: ArcGISResponse.transportError(error, layer: layer)
        default: ArcGISError(.transport, "the query of \(layer) failed: \(error)", layer: layer)
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
