package import CurlHTTP
package import EngineExecution
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
    let transport: EngineTransport
    let services: ExpiringCache<ServiceDescription>
    let queryables: ExpiringCache<Queryables>
    /// What every request carries because of the worker's credentials.
    let authenticator: any RequestAuthenticator
    /// Secret query parameters credentials added (an API key `in: query`), kept out of every URL the engine
    /// logs or reports.
    let redactor = ParameterRedactor()

    /// An engine sending its requests through `httpClient` (shared; the caller shuts it down), each carrying
    /// what `authenticator` says for its URL.
    package init(
        httpClient: HTTPClient, configuration: OGCEngineConfiguration = OGCEngineConfiguration(), logger: Logger,
        authenticator: any RequestAuthenticator = NoAuthentication(), metrics: EngineMetrics = EngineMetrics()
    ) {
        self.authenticator = authenticator
        self.configuration = configuration
        self.transport = EngineTransport(
            client: httpClient, limiter: HostLimiter(limit: configuration.maxConcurrentRequestsPerHost), rules: .ogc,
            retry: configuration.retry, logger: logger, metrics: metrics)
        self.services = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
        self.queryables = ExpiringCache(ttl: configuration.metadataTTL, metrics: metrics.cache)
    }

    /// Drops cached metadata (for tests).
    package func clearMetadataCache() {
        services.removeAll()
        queryables.removeAll()
    }

    /// One query's requests: the engine's transport with `auth`.
    func session(_ auth: QueryAuthentication) -> OGCSession {
        OGCSession(transport: transport, auth: auth, configuration: configuration)
    }

    /// One query's credentials: the engine's authenticator with the credential the query picked.
    func authentication(_ credential: String?) -> QueryAuthentication {
        QueryAuthentication(authenticator, credential: credential, redactor: redactor)
    }

    /// The landing page's description, from the cache or loaded once for every caller asking now. Cached per
    /// landing page and per credential identity (``QueryAuthentication/cacheKey(_:for:)``): what one
    /// credential could read never answers a caller using another, or none.
    func service(_ landing: String, auth: QueryAuthentication) async throws -> ServiceDescription {
        let key = try await Self.cacheKey(landing, auth: auth, layer: landing)
        if let cached = try services.freshValue(for: key) { return cached }
        let discovery = ServiceDiscovery(transport: session(auth))
        return try await services.value(for: key) { try await discovery.describe(landing: landing) }
    }

    /// A collection's queryables; nil when it declares none. A queryables document that cannot be read
    /// counts as none (the filter then runs in the worker), except for cancellation and credentials failures.
    /// Cached as ``service(_:auth:)`` is.
    func queryables(of collection: CollectionMetadata, auth: QueryAuthentication) async throws -> Queryables? {
        guard let url = collection.queryablesURL else { return nil }
        let layer = collection.url
        let key = try await Self.cacheKey(url, auth: auth, layer: layer)
        if let cached = try queryables.freshValue(for: key) { return cached }
        let session = session(auth)
        do {
            return try await queryables.value(for: key) {
                try await session.fetch(url, layer: layer, accept: "application/schema+json, application/json;q=0.9") {
                    response throws(FeatureServiceError) in
                    Queryables(try OGCResponse.document(response, layer: layer, expecting: "a queryables schema"))
                }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as FeatureServiceError where Self.isCredentialsFailure(error) {
            throw error
        } catch {
            transport.logger.info(
                "a collection's queryables could not be read; its filter runs in the worker",
                metadata: ["layer": "\(layer)", "error": "\(redactor.redact("\(error)"))"])
            return nil
        }
    }

    /// Whether `error` is about the request's credentials (a code of ``AuthenticationFailure``, or 403): such
    /// a failure fails the layer rather than quietly dropping what could not be read.
    static func isCredentialsFailure(_ error: FeatureServiceError) -> Bool {
        error.code == .forbidden || FeatureServiceError.Code.credentialCodes.contains(error.code)
    }

    private static func cacheKey(_ key: String, auth: QueryAuthentication, layer: String) async throws -> String {
        do {
            return try await auth.cacheKey(key, for: key)
        } catch let failure as AuthenticationFailure {
            throw FeatureServiceError(failure, layer: layer)
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
            let auth = authentication(query.credential)
            let queryables = ItemsOptions.needsQueryables(query, service: service)
                ? try await self.queryables(of: collection, auth: auth) : nil
            let runner = CollectionQueryRunner(
                transport: session(auth), service: service, collection: collection, queryables: queryables, query: query,
                budget: budget)
            let result = try await EngineSpans.layer(collection.url, engine: "ogc", errorCode: Self.spanErrorCode) {
                try await runner.run()
            }
            budget.progress?.layerFinished(ProgressLayer(url: collection.url, collection: collection.id))
            return ServiceLayerOutcome(url: collection.url, result: .success(result))
        } catch {
            budget.progress?.layerFinished(ProgressLayer(url: collection.url, collection: collection.id))
            return ServiceLayerOutcome(url: collection.url, result: .failure(failure(error, layer: collection.url)))
        }
    }

    /// Whatever a query threw, as the seam's error for `layer`, with secret query parameters redacted from
    /// its message and details (a `next` link in a paging error may carry them).
    func failure(_ error: any Error, layer: String) -> FeatureServiceError {
        redactor.redacting(Self.mapped(error, layer: layer))
    }

    /// Whatever a query threw, as the seam's error for `layer`.
    static func mapped(_ error: any Error, layer: String) -> FeatureServiceError {
        switch error {
        case let error as FeatureServiceError: return error
        case let failure as AuthenticationFailure: return FeatureServiceError(failure, layer: layer)
        case is CancellationError: return OGCFailure.cancelled(layer)
        case let error as HTTPError: return FeatureServiceError(transfer: error, layer: layer)
        default: return FeatureServiceError(.transport, "the query of \(layer) failed: \(error)", layer: layer)
        }
    }
}

extension Queryables {
    /// A queryables JSON schema: its `properties`, each with `type` and `format`.
    init(_ document: ParsedJSON) {
        var properties: [String: Property] = [:]
        for (name, schema) in document["properties"]?.objectValue ?? [:] {
            properties[name] = Property(type: schema["type"]?.stringValue, format: schema["format"]?.stringValue)
        }
        self.init(properties: properties, allowsOthers: document["additionalProperties"] != .bool(false))
    }
}
