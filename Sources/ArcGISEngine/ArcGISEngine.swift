public import CurlHTTP
public import Logging
import QueryLanguage

/// Queries ArcGIS FeatureServer and MapServer layers completely, correctly and concurrently.
///
/// One engine serves many queries at once: it caches layer metadata, bounds the requests in flight to each
/// host, retries what can succeed later, and checks that every result is complete. Queries are cancelled
/// the Swift way: cancel the calling task and every page it has in flight is aborted.
public final class ArcGISEngine: Sendable {
    public let configuration: ArcGISEngineConfiguration
    let transport: ArcGISTransport
    private let layers: ExpiringCache<LayerMetadata>
    private let services: ExpiringCache<ServiceMetadata>

    /// An engine sending its requests through `httpClient` (shared; the caller shuts it down).
    public init(httpClient: HTTPClient, configuration: ArcGISEngineConfiguration = ArcGISEngineConfiguration(), logger: Logger) {
        self.configuration = configuration
        self.transport = ArcGISTransport(
            client: httpClient, limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost),
            configuration: configuration, logger: logger)
        self.layers = ExpiringCache(ttl: configuration.metadataTTL)
        self.services = ExpiringCache(ttl: configuration.metadataTTL)
    }

    /// The layer's metadata, from the cache when it is fresh.
    public func layerMetadata(_ url: String) async throws(ArcGISError) -> LayerMetadata {
        let parsed = try LayerURL(parsing: url)
        guard parsed.layerId != nil else {
            throw ArcGISError(.invalidURL, "\(parsed.url) is a service URL; a layer URL ends in a layer id", layer: parsed.url)
        }
        return try await Self.mapErrors(layer: parsed.url) { try await self.layerMetadata(parsed) }
    }

    /// The service's layer list, from the cache when it is fresh.
    public func serviceMetadata(_ url: String) async throws(ArcGISError) -> ServiceMetadata {
        let parsed = try LayerURL(parsing: url)
        let service = LayerURL(serviceURL: parsed.serviceURL, layerId: nil, origin: parsed.origin)
        return try await Self.mapErrors(layer: service.url) { try await self.serviceMetadata(service) }
    }

    /// Runs `query` against one layer. The where clause and outFields are checked against the layer's fields
    /// before any query is sent.
    public func query(layer url: String, _ query: FeatureQuery) async throws(ArcGISError) -> LayerQueryResult {
        let parsed = try LayerURL(parsing: url)
        guard parsed.layerId != nil else {
            throw ArcGISError(.invalidURL, "\(parsed.url) is a service URL; a layer URL ends in a layer id", layer: parsed.url)
        }
        return try await Self.mapErrors(layer: parsed.url) { try await self.run(query, on: parsed) }
    }

    /// The layer URLs a target stands for: the layer itself, the listed sublayers of a service, or every
    /// feature layer of a service (group layers hold no features and are skipped).
    public func layerURLs(of target: ArcGISTarget) async throws(ArcGISError) -> [String] {
        let parsed = try LayerURL(parsing: target.url)
        if parsed.layerId != nil {
            guard target.layers == nil else {
                throw ArcGISError(.invalidURL, "\(parsed.url) is a layer URL; `layers` needs a service URL", layer: parsed.url)
            }
            return [parsed.url]
        }
        if let ids = target.layers { return ids.map { parsed.layer($0).url } }
        let service = try await serviceMetadata(parsed.url)
        return service.layers.filter { $0.subLayerIds.isEmpty && !$0.isTable }.map { parsed.layer($0.id).url }
    }

    /// Runs `query` against every layer of `targets` at once. Each layer gets its own outcome: one failing
    /// layer (or one target whose service cannot be read) never fails the others. Outcomes follow the order
    /// of the targets and their layers.
    public func query(_ targets: [ArcGISTarget], _ query: FeatureQuery) async -> [LayerOutcome] {
        await withTaskGroup(of: (Int, [LayerOutcome]).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    // The tuple after the `do`, as in `queryLayers` (Swift 6.3.1 -O miscompiles the other form).
                    let layerOutcomes: [LayerOutcome]
                    do throws(ArcGISError) {
                        let urls = try await self.layerURLs(of: target)
                        layerOutcomes = await self.queryLayers(urls, query)
                    } catch {
                        layerOutcomes = [LayerOutcome(url: error.layer, result: .failure(error))]
                    }
                    return (index, layerOutcomes)
                }
            }
            var outcomes = [[LayerOutcome]](repeating: [], count: targets.count)
            for await (index, layerOutcomes) in group { outcomes[index] = layerOutcomes }
            return outcomes.flatMap { $0 }
        }
    }

    private func queryLayers(_ urls: [String], _ query: FeatureQuery) async -> [LayerOutcome] {
        await withTaskGroup(of: (Int, LayerOutcome).self) { group in
            for (index, url) in urls.enumerated() {
                group.addTask {
                    // The result first, the tuple after the `do`: Swift 6.3.1's optimizer miscompiles
                    // `return (index, X(.success(try await ...)))` inside a do/catch in a child task (the
                    // captured index comes back wrong, so layers went missing from fan-out results or the
                    // store below trapped out of range) in release builds only.
                    let result: Result<LayerQueryResult, ArcGISError>
                    do throws(ArcGISError) {
                        result = .success(try await self.query(layer: url, query))
                    } catch {
                        result = .failure(error)
                    }
                    return (index, LayerOutcome(url: url, result: result))
                }
            }
            var outcomes = [LayerOutcome?](repeating: nil, count: urls.count)
            for await (index, outcome) in group { outcomes[index] = outcome }
            return outcomes.compactMap { $0 }
        }
    }

    /// Forgets cached metadata, so the next query reads it again.
    public func clearMetadataCache() {
        layers.removeAll()
        services.removeAll()
    }

    // MARK: Internals

    private func run(_ query: FeatureQuery, on url: LayerURL) async throws -> LayerQueryResult {
        let metadata = try await layerMetadata(url)
        let checked = try QueryCheck.validated(query, for: metadata)
        let runner = LayerQueryRunner(
            transport: transport, layer: metadata, origin: url.origin, query: checked, configuration: configuration)
        return try await runner.run()
    }

    private func layerMetadata(_ url: LayerURL) async throws -> LayerMetadata {
        let transport = self.transport
        return try await layers.value(for: url.url) {
            try await transport.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                      layer: url.url, counter: nil) { body throws(ArcGISError) in
                try ArcGISResponse.layerMetadata(body, url: url.url)
            }
        }
    }

    private func serviceMetadata(_ url: LayerURL) async throws -> ServiceMetadata {
        let transport = self.transport
        return try await services.value(for: url.url) {
            try await transport.fetch(url.url, origin: url.origin, parameters: QueryParameters(fields: [("f", "json")]),
                                      layer: url.url, counter: nil) { body throws(ArcGISError) in
                try ArcGISResponse.serviceMetadata(body, url: url.url)
            }
        }
    }

    /// Runs `body`, turning whatever it throws into an ``ArcGISError`` for `layer`.
    static func mapErrors<T>(layer: String, _ body: () async throws -> T) async throws(ArcGISError) -> T {
        do {
            return try await body()
        } catch let error as ArcGISError {
            throw error
        } catch is CancellationError {
            throw ArcGISError(.cancelled, "the query of \(layer) was cancelled", layer: layer)
        } catch let error as HTTPError {
            throw ArcGISResponse.transportError(error, layer: layer)
        } catch {
            throw ArcGISError(.transport, "the query of \(layer) failed: \(error)", layer: layer)
        }
    }
}

/// A feature service target: a layer URL, or a service URL with the sublayers to query (all feature
/// layers when `layers` is nil).
public struct ArcGISTarget: Sendable, Hashable {
    public var url: String
    public var layers: [Int]?

    public init(url: String, layers: [Int]? = nil) {
        self.url = url
        self.layers = layers
    }
}
