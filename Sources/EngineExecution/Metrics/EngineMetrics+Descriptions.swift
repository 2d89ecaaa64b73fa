/// The metrics the engines make (``HostMetrics``, ``MetadataCacheMetrics``), named here beside the code that
/// makes them; the worker's catalog lists them with its own.
extension EngineMetrics {
    // MARK: HTTP to feature services

    package static let httpRequests = MetricDescription(
        "http_requests_total", .counter, labels: ["host", "status_class"],
        help: "HTTP exchanges of the engines with feature services, by host and status class (1xx to 5xx, or error "
            + "for a transfer that failed without an answer; cancelled transfers are not counted).")
    package static let httpRequestDuration = MetricDescription(
        "http_request_duration_seconds", .histogram, labels: ["host"],
        help: "Duration of one HTTP exchange with a feature service, by host (cancelled transfers excluded).")
    package static let httpRetries = MetricDescription(
        "http_retries_total", .counter, labels: ["host"],
        help: "Feature service requests sent again after a retryable failure, by host.")
    package static let httpRetryAfterWaits = MetricDescription(
        "http_retry_after_waits_total", .counter, labels: ["host"],
        help: "Retries whose wait a service set with Retry-After, by host.")
    package static let httpRetryAfterWaitSeconds = MetricDescription(
        "http_retry_after_wait_seconds_total", .counter, labels: ["host"],
        help: "Seconds waited because services sent Retry-After, by host.")

    // MARK: Metadata

    package static let metadataCacheRequests = MetricDescription(
        "metadata_cache_requests_total", .counter, labels: ["result"],
        help: "Layer, service and collection metadata lookups: hit (cached), miss (loaded) or shared (waited for "
            + "another caller's load).")
    package static let metadataCacheEntries = MetricDescription(
        "metadata_cache_entries", .gauge,
        help: "Layer, service and collection metadata held by the engines' caches (expired values are dropped "
            + "every 64 loads).")
}
