import ArcGISEngine
package import CurlHTTP
package import EngineExecution
package import FeatureService
package import Logging
package import OGCEngine

/// The engines a worker runs, behind one ``FeatureServiceRouter``: the only place that knows which protocols
/// exist. Adding a protocol adds its engine here (and its module to this target); the worker, which holds just
/// the router, does not change.
package enum StandardEngines {
    /// What the worker's settings say about every engine.
    package struct Limits: Sendable, Hashable {
        /// HTTP requests in flight to one host at once, across every query of an engine.
        package var maxRequestsPerHost: Int
        /// Timeout of one whole HTTP exchange.
        package var requestTimeout: Duration
        /// Layers one request may query in all, whole services' layer lists included (nil: no bound). A
        /// service's layer list is known only to its engine, so each engine enforces it once it has read it.
        package var maxLayersPerRequest: Int?

        package init(maxRequestsPerHost: Int, requestTimeout: Duration, maxLayersPerRequest: Int? = nil) {
            self.maxRequestsPerHost = maxRequestsPerHost
            self.requestTimeout = requestTimeout
            self.maxLayersPerRequest = maxLayersPerRequest
        }
    }

    /// Every engine, sending its requests through `httpClient` (shared; the caller shuts it down), each request
    /// carrying what `authenticator` says for its URL (the worker's one ``RequestAuthenticator``), both counting
    /// into `metrics` (one instance, so a host's series are the same whichever protocol talks to it).
    package static func router(
        httpClient: HTTPClient, limits: Limits, logger: Logger, authenticator: any RequestAuthenticator = NoAuthentication(),
        metrics: EngineMetrics = EngineMetrics()
    ) -> FeatureServiceRouter {
        var configuration = ArcGISEngineConfiguration(
            maxConcurrentRequestsPerHost: limits.maxRequestsPerHost, requestTimeout: limits.requestTimeout)
        configuration.maxLayersPerQuery = limits.maxLayersPerRequest
        let arcgis = ArcGISEngine(
            httpClient: httpClient, configuration: configuration, logger: logger, authenticator: authenticator, metrics: metrics)
        return FeatureServiceRouter([
            arcgis, ogc(httpClient: httpClient, limits: limits, logger: logger, authenticator: authenticator, metrics: metrics),
        ])
    }

    /// The OGC API Features engine with the worker's limits: the same per-host bound, request timeout and
    /// layer bound as ArcGIS; everything else (page size, tiling, retries) at the engine's defaults.
    package static func ogc(
        httpClient: HTTPClient, limits: Limits, logger: Logger, authenticator: any RequestAuthenticator = NoAuthentication(),
        metrics: EngineMetrics = EngineMetrics()
    ) -> OGCEngine {
        var configuration = OGCEngineConfiguration(
            maxConcurrentRequestsPerHost: limits.maxRequestsPerHost, requestTimeout: limits.requestTimeout)
        configuration.maxLayersPerQuery = limits.maxLayersPerRequest
        return OGCEngine(
            httpClient: httpClient, configuration: configuration, logger: logger, authenticator: authenticator, metrics: metrics)
    }
}
