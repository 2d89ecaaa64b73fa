package import EngineExecution

/// How the engine talks to ArcGIS services: how hard it pushes a host, how it retries, and what it holds in
/// memory. The defaults suit a worker that serves many callers against public services.
package struct ArcGISEngineConfiguration: Sendable, Hashable {
    /// Requests in flight to one host (scheme, host and port) across every query of this engine, so a
    /// burst of queries does not overload one service.
    package var maxConcurrentRequestsPerHost: Int
    /// Pages (or object-id chunks) of one layer fetched at once.
    package var pageConcurrency: Int
    /// Attempts, backoff and the longest `Retry-After` honoured.
    package var retry: RetrySchedule
    /// How long layer and service metadata stay cached.
    package var metadataTTL: Duration
    /// Queries whose URL would be longer than this go as a form-encoded POST (clients switch at about
    /// 2,000 characters; some proxies cut at 2,048).
    package var maxGETURLLength: Int
    /// Object ids per request when features are fetched by `objectIds` (layers without pagination, repairs).
    package var objectIdChunkSize: Int
    /// The most features one layer's result may hold when the caller set no `maxFeatures`; larger results
    /// fail with `limit_exceeded` instead of exhausting memory. Selections (ids) are not limited by this. A
    /// caller's `maxFeatures` lifts it: what bounds memory then is the ``ResultBudget`` passed with the query
    /// (the worker always passes one).
    package var maxFeaturesInMemory: Int
    /// Ask for the count alongside ids and features and report completeness against it.
    package var verifyCompleteness: Bool
    /// Per-request timeout (the whole transfer, including the body).
    package var requestTimeout: Duration
    /// The most layers one call of `query(_:_:)` may stand for once whole services are expanded into their
    /// feature layers; more fail every target with `too_many_layers` before anything is queried. `nil`: no
    /// bound. (The worker sets its `maxLayers`.)
    package var maxLayersPerQuery: Int? = nil

    package init(
        maxConcurrentRequestsPerHost: Int = 16, pageConcurrency: Int = 6, retry: RetrySchedule = RetrySchedule(),
        metadataTTL: Duration = .seconds(300), maxGETURLLength: Int = 1_800, objectIdChunkSize: Int = 500,
        maxFeaturesInMemory: Int = 1_000_000, verifyCompleteness: Bool = true,
        requestTimeout: Duration = .seconds(60)
    ) {
        self.maxConcurrentRequestsPerHost = max(1, maxConcurrentRequestsPerHost)
        self.pageConcurrency = max(1, pageConcurrency)
        self.retry = retry
        self.metadataTTL = metadataTTL
        self.maxGETURLLength = maxGETURLLength
        self.objectIdChunkSize = max(1, objectIdChunkSize)
        self.maxFeaturesInMemory = maxFeaturesInMemory
        self.verifyCompleteness = verifyCompleteness
        self.requestTimeout = requestTimeout
    }
}
