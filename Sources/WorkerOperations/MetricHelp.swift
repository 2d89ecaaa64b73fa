/// The `# HELP` text of each metric, by its exposed name: swift-metrics has no place for it, so the exposition
/// adds it (``MetricsExposition``). The metrics lane owns the catalog; a name without an entry gets no HELP line.
package struct MetricHelp: Sendable, Hashable {
    /// Help text by metric name (`query_worker_outcomes_total`).
    package var entries: [String: String]

    package init(_ entries: [String: String] = [:]) {
        self.entries = entries
    }

    package subscript(name: String) -> String? { entries[name] }

    /// The worker's catalog (docs/operations.md lists the same names): what each metric counts, in one line.
    package static let worker = MetricHelp(
        Dictionary(uniqueKeysWithValues: [
            ("requests_received_total", "Request messages read from the requests topic."),
            ("outcomes_total", "Outcomes published, by status and error code (none for results)."),
            ("request_duration_seconds", "Time from receiving a request to publishing its outcome, by status."),
            ("supersessions_total", "Requests superseded by a newer request for the same task."),
            ("shares_total", "Requests that joined a run already answering the same work."),
            ("requests_in_flight", "Requests received and not yet answered."),
            ("runs_in_flight", "Engine runs executing."),
            ("intake_paused", "1 while the in-flight bound holds the message loop (partitions paused)."),
            ("consumer_lag", "Requests waiting per partition: end offset minus committed offset."),
            ("committed_offset", "Last committed offset per partition."),
            ("assigned_partitions", "Partitions this member of the group owns."),
            ("rebalances_total", "Rebalance events, by event (assigned, revoked, lost)."),
            ("outcome_delivery_failures_total", "Outcome publications the cluster failed, by error code."),
            ("outcome_delivery_retries_total", "Outcomes sent again after a failed delivery."),
            ("kafka_connected", "1 while a broker is reachable and the consumer is in its group."),
            ("http_requests_total", "HTTP exchanges with feature services, by service host and status class."),
            ("http_request_duration_seconds", "Duration of one HTTP exchange, by service host."),
            ("http_retries_total", "HTTP exchanges retried, by service host."),
            ("http_retry_after_waits_total", "Waits caused by a Retry-After header, by service host."),
            ("http_retry_after_wait_seconds_total", "Seconds waited because of Retry-After headers, by service host."),
            ("token_fetches_total", "Token calls, by credential name and result (ok, failed)."),
            ("token_refresh_failures_total", "Failed token refreshes, by credential name."),
            ("metadata_cache_requests_total", "Layer and collection metadata lookups, by result (hit, miss, shared)."),
        ].map { ("query_worker_" + $0.0, $0.1) }))
}
