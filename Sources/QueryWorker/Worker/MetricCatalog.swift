import Authentication
package import EngineExecution

/// Every metric the worker exposes: its own, declared here, and those the engines and the authenticator make,
/// declared beside the code that makes them (``EngineMetrics``, ``TokenMetrics``). Log lines and alerts use
/// the same words.
///
/// Labels are bounded by construction: never a request id, task id, URL or path. `host` is a service's host
/// (and port), `credential` a credential's configured name, `code` a contract or Kafka error code.
package enum MetricCatalog {
    // MARK: Requests

    package static let requestsReceived = MetricDescription(
        "requests_received_total", .counter,
        help: "Request-topic messages read by the worker (queries, cancel messages and unreadable messages).")
    package static let outcomes = MetricDescription(
        "outcomes_total", .counter, labels: ["status", "code"],
        help: "Outcomes delivered to the outcome topics, by status and error code (code \"none\" for results).")
    package static let requestDuration = MetricDescription(
        "request_duration_seconds", .histogram, labels: ["status"],
        help: "Time from a request's receipt to its outcome's delivery, by outcome status.")
    package static let supersessions = MetricDescription(
        "supersessions_total", .counter,
        help: "Requests answered superseded because a newer request for the same task arrived.")
    package static let shares = MetricDescription(
        "shares_total", .counter,
        help: "Requests that joined a run already executing the same work for their task instead of starting one.")
    package static let requestsInFlight = MetricDescription(
        "requests_in_flight", .gauge,
        help: "Request-topic messages received whose outcome is not yet delivered (their offsets are held).")
    package static let runsInFlight = MetricDescription(
        "runs_in_flight", .gauge, help: "Engine runs executing (one run may serve several requests).")
    package static let intakePaused = MetricDescription(
        "intake_paused", .gauge,
        help: "1 while the in-flight bound (maxInFlight) has paused the request partitions, else 0.")

    // MARK: Kafka

    package static let consumerLag = MetricDescription(
        "consumer_lag", .gauge, labels: ["topic", "partition"],
        help: "Messages of an assigned request partition not yet committed: end offset minus committed offset.")
    package static let committedOffset = MetricDescription(
        "committed_offset", .gauge, labels: ["topic", "partition"],
        help: "The last offset committed for an assigned request partition.")
    package static let assignedPartitions = MetricDescription(
        "assigned_partitions", .gauge, help: "Request partitions this group member owns.")
    package static let rebalances = MetricDescription(
        "rebalances_total", .counter, labels: ["event"],
        help: "Consumer group rebalance events by kind: assigned, revoked or lost.")
    package static let offsetCommits = MetricDescription(
        "offset_commits_total", .counter, labels: ["result"],
        help: "Commits of stored request offsets by the group coordinator's answer: committed, refused (the group "
            + "was rebalancing: answers given since may be repeated by the next owner) or failed.")
    package static let answersLeftUncommitted = MetricDescription(
        "answers_left_uncommitted_total", .counter,
        help: "Answers published for request partitions that went without their offsets committed (revoked while "
            + "the coordinator refused commits, or lost): their next owner answers them again (at-least-once).")
    package static let transactions = MetricDescription(
        "transactions_total", .counter, labels: ["result"],
        help: "Kafka transactions of the exactly-once mode (outcomes and their offsets together): committed, or "
            + "aborted (their outcomes go in the next one, but for those of revoked partitions).")
    package static let outcomeDeliveryFailures = MetricDescription(
        "outcome_delivery_failures_total", .counter, labels: ["code"],
        help: "Outcome publications the Kafka producer could not deliver, by Kafka error code.")
    package static let outcomeDeliveryRetries = MetricDescription(
        "outcome_delivery_retries_total", .counter,
        help: "Outcomes sent again after a failed delivery (after a backoff, or as a failed outcome when too large).")
    package static let progressEvents = MetricDescription(
        "progress_events_total", .counter, labels: ["result"],
        help: "Progress events of requests that asked for them: published, or failed (the progress topic is "
            + "missing or the producer could not deliver them; the requests are unaffected).")
    package static let kafkaConnected = MetricDescription(
        "kafka_connected", .gauge,
        help: "1 while the worker reaches the Kafka cluster and has joined its group, 0 while it does not.")

    // MARK: Result store

    package static let storedObjects = MetricDescription(
        "stored_objects_total", .counter,
        help: "Layers written to the result store (resultStore) and completed: one object each, named in the result's location.")
    package static let storedBytes = MetricDescription(
        "stored_bytes_total", .counter, help: "Bytes of completed objects in the result store (after compression).")
    package static let storeFailures = MetricDescription(
        "store_failures_total", .counter, labels: ["code"],
        help: "Layers that failed writing to the result store, by code: store_unavailable (retryable) or store_denied.")

    // MARK: Process

    package static let memoryTrimmedBytes = MetricDescription(
        "memory_trimmed_bytes_total", .counter,
        help: "Resident bytes the periodic heap trim (memoryTrimInterval) gave back to the system: memory freed "
            + "after a burst that the allocator had kept.")

    // MARK: Traces

    package static let traceContextInvalid = MetricDescription(
        "trace_context_invalid_total", .counter,
        help: "Request messages whose traceparent or tracestate header could not be read (each starts a new trace).")

    /// Every metric, the other modules' included, in the order the documentation lists them.
    package static let all: [MetricDescription] = [
        requestsReceived, outcomes, requestDuration, supersessions, shares, requestsInFlight, runsInFlight,
        intakePaused, consumerLag, committedOffset, assignedPartitions, rebalances, offsetCommits, answersLeftUncommitted, transactions, outcomeDeliveryFailures,
        outcomeDeliveryRetries, progressEvents, kafkaConnected, storedObjects, storedBytes, storeFailures, EngineMetrics.httpRequests, EngineMetrics.httpRequestDuration,
        EngineMetrics.httpRetries, EngineMetrics.httpRetryAfterWaits, EngineMetrics.httpRetryAfterWaitSeconds,
        TokenMetrics.tokenFetches, TokenMetrics.tokenRefreshFailures, TokenMetrics.credentialCacheEntries,
        EngineMetrics.metadataCacheRequests,
        EngineMetrics.metadataCacheEntries,
        memoryTrimmedBytes, traceContextInvalid,
    ]

    /// The metric named `name` (a full name), if the catalog has it.
    package static func metric(named name: String) -> MetricDescription? {
        all.first { $0.name == name }
    }
}
