package import EngineExecution

/// How the engine talks to OGC API Features services. The defaults suit a worker serving many callers
/// against public services.
package struct OGCEngineConfiguration: Sendable, Hashable {
    /// Requests in flight to one origin across every query of this engine (tiles of one collection included).
    package var maxConcurrentRequestsPerHost: Int
    /// Attempts, backoff and the longest `Retry-After` honoured (429, 503 and other retryable failures).
    package var retry: RetrySchedule
    /// How long landing pages, conformance, collections and queryables stay cached.
    package var metadataTTL: Duration
    /// Timeout of one whole HTTP exchange.
    package var requestTimeout: Duration
    /// The `limit` asked of a server whose OpenAPI document declares no maximum (servers clamp larger ones).
    package var defaultPageLimit: Int
    /// The `limit` asked again, once, when a server answers 400 to the first page's larger one.
    package var fallbackPageLimit: Int
    /// Empty pages in a row that still carry `next` before the layer fails with `paging_stalled`.
    package var maxConsecutiveEmptyPages: Int
    /// The most features a features result holds when the caller set no `maxFeatures` (more fail with
    /// `limit_exceeded`); a caller's `maxFeatures` lifts it, the result budget then bounds memory.
    package var maxFeaturesInMemory: Int
    /// Layers one call may query once landing pages are expanded into collections (nil: no bound).
    package var maxLayersPerQuery: Int?
    /// Tiling: a collection whose `numberMatched` exceeds this many pages is fetched as spatial tiles at
    /// once; `nil` turns tiling off.
    package var tileWhenPagesExceed: Int?
    /// The most tiles per side (tiles = side²) of a tiled collection; fewer for fewer pages (about two pages a
    /// tile, at least 2 per side). The per-host limit bounds how many run at once.
    package var tilesPerSide: Int
    /// The largest OpenAPI document read for `limit`'s maximum; a larger one is skipped.
    package var maxServiceDescriptionBytes: Int

    package init(
        maxConcurrentRequestsPerHost: Int = 16,
        retry: RetrySchedule = RetrySchedule(),
        metadataTTL: Duration = .seconds(300), requestTimeout: Duration = .seconds(60), defaultPageLimit: Int = 10_000,
        fallbackPageLimit: Int = 1_000, maxConsecutiveEmptyPages: Int = 100, maxFeaturesInMemory: Int = 1_000_000,
        maxLayersPerQuery: Int? = nil, tileWhenPagesExceed: Int? = 4, tilesPerSide: Int = 4,
        maxServiceDescriptionBytes: Int = 8 << 20
    ) {
        self.maxConcurrentRequestsPerHost = max(1, maxConcurrentRequestsPerHost)
        self.retry = retry
        self.metadataTTL = metadataTTL
        self.requestTimeout = requestTimeout
        self.defaultPageLimit = max(1, defaultPageLimit)
        self.fallbackPageLimit = max(1, fallbackPageLimit)
        self.maxConsecutiveEmptyPages = max(1, maxConsecutiveEmptyPages)
        self.maxFeaturesInMemory = maxFeaturesInMemory
        self.maxLayersPerQuery = maxLayersPerQuery
        self.tileWhenPagesExceed = tileWhenPagesExceed
        self.tilesPerSide = max(1, tilesPerSide)
        self.maxServiceDescriptionBytes = maxServiceDescriptionBytes
    }
}
