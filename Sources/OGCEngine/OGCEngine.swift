package import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import FeatureService
package import Logging

/// Queries OGC API Features collections completely and honestly, behind the worker's engine seam.
///
/// One engine serves many queries at once: it caches each landing page's description (conformance,
/// collections, the page size it may ask for) and each collection's queryables with expiry, loading each
/// once however many queries ask together; it bounds the requests in flight per origin; it retries what can
/// succeed later (429 and 503 after their `Retry-After`). Queries are cancelled the Swift way: cancel the
/// calling task and every transfer it has in flight is aborted (CurlHTTP removes the transfer at once).
package final class OGCEngine: Sendable {
    package let configuration: OGCEngineConfiguration
    let transport: OGCTransport
    let services: ExpiringCache<ServiceDescription>
    let queryables: ExpiringCache<Queryables>

    /// An engine sending its requests through `httpClient` (shared; the caller shuts it down).
    package init(httpClient: HTTPClient, configuration: OGCEngineConfiguration = OGCEngineConfiguration(), logger: Logger) {
        self.configuration = configuration
        self.transport = OGCTransport(
            client: httpClient, limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost),
            configuration: configuration, logger: logger)
        self.services = ExpiringCache(ttl: configuration.metadataTTL)
        self.queryables = ExpiringCache(ttl: configuration.metadataTTL)
    }

    /// Drops cached metadata (for tests).
    package func clearMetadataCache() {
        services.removeAll()
        queryables.removeAll()
    }

    /// The landing page's description, from the cache or loaded once for every caller asking now.
    func service(_ landing: String) async throws -> ServiceDescription {
        if let cached = try services.freshValue(for: landing) { return cached }
        let discovery = ServiceDiscovery(transport: transport)
        return try await services.value(for: landing) { try await discovery.describe(landing: landing) }
    }

    /// A collection's queryables; nil when it declares none. A queryables document that cannot be read
    /// counts as none (the filter then runs in the worker), except for cancellation.
    func queryables(of collection: CollectionMetadata) async throws -> Queryables? {
        guard let url = collection.queryablesURL else { return nil }
        if let cached = try queryables.freshValue(for: url) { return cached }
        let transport = self.transport
        let layer = collection.url
        do {
            return try await queryables.value(for: url) {
                try await transport.fetch(url, layer: layer, accept: "application/schema+json, application/json;q=0.9") {
                    response throws(FeatureServiceError) in
                    Queryables(try OGCResponse.document(response, layer: layer, expecting: "a queryables schema"))
                }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            transport.logger.info(
                "a collection's queryables could not be read; its filter runs in the worker",
                metadata: ["layer": "\(layer)", "error": "\(error)"])
            return nil
        }
    }

    /// One collection's outcome for `query`.
    func queryCollection(
        _ id: String, of service: ServiceDescription, _ query: ServiceQuery, budget: ResultBudget
    ) async -> ServiceLayerOutcome {
        let url = service.landing + "/collections/" + PathSegment.encode(id)
        guard let collection = service.collection(id) else {
            let error = FeatureServiceError(
                .notFound, "\(url): the landing page \(service.landing) lists no collection \"\(id)\"", layer: url)
            return ServiceLayerOutcome(url: url, result: .failure(error))
        }
        do {
            let queryables = query.whereClause == nil ? nil : try await self.queryables(of: collection)
            let runner = CollectionQueryRunner(
                transport: transport, service: service, collection: collection, queryables: queryables, query: query,
                budget: budget)
            return ServiceLayerOutcome(url: collection.url, result: .success(try await runner.run()))
        } catch {
            return ServiceLayerOutcome(url: collection.url, result: .failure(Self.mapped(error, layer: collection.url)))
        }
    }

    /// Whatever a query threw, as the seam's error for `layer`.
    static func mapped(_ error: any Error, layer: String) -> FeatureServiceError {
        switch error {
        case let error as FeatureServiceError: return error
        case is CancellationError: return OGCFailure.cancelled(layer)
        case let error as HTTPError: return OGCTransport.transportError(error, layer: layer)
        default: return FeatureServiceError(.transport, "the query of \(layer) failed: \(error)", layer: layer)
        }
    }
}

extension Queryables {
    /// A queryables JSON schema: its `properties`, each with `type` and `format`.
    init(_ document: ParsedJSON) {
        var properties: [String: Property] = [:]
        for (name, schema) in document["properties"]?.members ?? [:] {
            properties[name] = Property(type: schema["type"]?.text, format: schema["format"]?.text)
        }
        self.init(properties: properties, allowsOthers: document["additionalProperties"] != .bool(false))
    }
}
