import ArcGISEngine
public import CurlHTTP
public import FeatureService
public import Logging

/// The engines a worker runs, behind one ``FeatureServiceRouter``: the only place that knows which protocols
/// exist. Adding a protocol adds its engine here (and its module to this target); the worker, which holds just
/// the router, does not change.
public enum StandardEngines {
    /// What the worker's settings say about every engine.
    public struct Limits: Sendable, Hashable {
        /// HTTP requests in flight to one host at once, across every query of an engine.
        public var maxRequestsPerHost: Int
        /// Timeout of one whole HTTP exchange.
        public var requestTimeout: Duration

        public init(maxRequestsPerHost: Int, requestTimeout: Duration) {
            self.maxRequestsPerHost = maxRequestsPerHost
            self.requestTimeout = requestTimeout
        }
    }

    /// Every engine, sending its requests through `httpClient` (shared; the caller shuts it down).
    public static func router(httpClient: HTTPClient, limits: Limits, logger: Logger) -> FeatureServiceRouter {
        let arcgis = ArcGISEngine(
            httpClient: httpClient,
            configuration: ArcGISEngineConfiguration(
                maxConcurrentRequestsPerHost: limits.maxRequestsPerHost, requestTimeout: limits.requestTimeout),
            logger: logger)
        return FeatureServiceRouter([arcgis])
    }
}
