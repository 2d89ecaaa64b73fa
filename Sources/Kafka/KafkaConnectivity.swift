import Synchronization
/// Whether a client hears from its cluster, as librdkafka's error callback and the client's own traffic tell
/// it: what a readiness probe and the worker's "waiting for the Kafka cluster" warning read.
///
/// librdkafka retries connections forever and reports "all brokers down" once per transition, so the state
/// is set by that report and cleared by the next sign of life (a fetched message, a group assignment, a
/// delivery report, an answered offset or metadata request).
package struct KafkaConnectivity: Sendable, Equatable {
    /// The last error librdkafka reported through its error callback.
    package struct Failure: Sendable, Equatable {
        /// librdkafka's name for the error (`_TRANSPORT`, `_ALL_BROKERS_DOWN`, …).
        package var code: String
        package var message: String
        package var at: ContinuousClock.Instant
    }

    /// When librdkafka reported every broker down; `nil` while the client hears from the cluster (or has not
    /// been told otherwise yet).
    package var allBrokersDownSince: ContinuousClock.Instant?
    package var lastError: Failure?

    package init(allBrokersDownSince: ContinuousClock.Instant? = nil, lastError: Failure? = nil) {
        self.allBrokersDownSince = allBrokersDownSince
        self.lastError = lastError
    }

    package var isConnected: Bool { allBrokersDownSince == nil }
}

extension KafkaConsumer {
    /// What the consumer's callbacks and traffic say about the cluster.
    package var connectivity: KafkaConnectivity { handle.context.connectivity }

    /// Whether the consumer has joined its group: an assignment (possibly empty) arrived and was not lost
    /// since. An eager rebalance's revocation keeps it: the member is still in the group, rejoining.
    package var hasJoinedGroup: Bool { core.joinedGroup.load(ordering: .relaxed) }

    /// Asks the cluster for its broker list (bounded by `timeout`); an answer clears "all brokers down". For a
    /// client with no traffic of its own that would otherwise never learn the cluster came back.
    @discardableResult
    package func probeConnectivity(timeout: Duration) async -> Bool { await handle.probeCluster(timeout: timeout) }
}

extension KafkaProducer {
    /// What the producer's callbacks and delivery reports say about the cluster.
    package var connectivity: KafkaConnectivity { handle.context.connectivity }

    /// Messages queued or in flight, not delivered yet (librdkafka's `outq_len`).
    package var undeliveredCount: Int { queuedCount }

    /// See ``KafkaConsumer/probeConnectivity(timeout:)``.
    @discardableResult
    package func probeConnectivity(timeout: Duration) async -> Bool { await handle.probeCluster(timeout: timeout) }
}

extension KafkaConsumer {
    /// The fatal error librdkafka raised on this client, if any: the client can no longer be used, and its
    /// `run()` has thrown (or will throw) it. Transient errors (brokers down, transport) never show here.
    package var fatalError: KafkaError? { handle.context.fatalError.withLock { $0 } }
}

extension KafkaProducer {
    /// See ``KafkaConsumer/fatalError``.
    package var fatalError: KafkaError? { handle.context.fatalError.withLock { $0 } }
}
