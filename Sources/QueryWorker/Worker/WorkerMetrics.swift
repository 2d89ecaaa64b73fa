import EngineExecution
import FeatureQuerySupport
import FeatureService
package import Kafka
package import Metrics
import RequestContract

/// The worker's own metrics (``MetricCatalog``): requests received and answered, durations, supersessions and
/// shares, what is in flight, flow control, rebalances and outcome deliveries; the Kafka gauges (lag,
/// committed offsets, connectivity) are set from plain values by whoever measures them.
///
/// Every handle is made once, here or on a label tuple's first use (``LabelledHandles``); the call sites in
/// ``WorkerCore`` are one line each. A request costs: one counter increment when read, one lookup of its
/// outcome's (status, code) handles and a counter increment and a timer record when answered, and three gauge
/// sets per machine event (about four events per request).
package final class WorkerMetrics: Sendable {
    private let received: Counter
    private let outcomes: LabelledHandles<OutcomeKey, OutcomeHandles>
    private let supersessions: Counter
    private let shares: Counter
    private let requestsInFlight: Gauge
    private let runsInFlight: Gauge
    private let intakePaused: Gauge
    private let assignedPartitions: Gauge
    private let rebalances: (assigned: Counter, revoked: Counter, lost: Counter)
    private let commits: (committed: Counter, refused: Counter, failed: Counter)
    private let leftUncommitted: Counter
    private let transactions: (committed: Counter, aborted: Counter)
    private let deliveryFailures: LabelledHandles<KafkaError.Code, Counter>
    private let deliveryRetries: Counter
    private let progressEvents: (published: Counter, failed: Counter)
    private let kafkaConnected: Gauge
    private let stored: (objects: Counter, bytes: Counter)
    private let storeFailures: LabelledHandles<String, Counter>
    private let partitions: LabelledHandles<KafkaTopicPartition, PartitionGauges>

    /// An outcome's labels: the published status and the error code (`none` for a result).
    private struct OutcomeKey: Hashable, Sendable {
        var status: String
        var code: String
    }

    private struct OutcomeHandles: Sendable {
        var count: Counter
        /// The status's duration histogram (the same handle for every code of one status).
        var duration: Metrics.Timer
    }

    private struct PartitionGauges: Sendable {
        var lag: Gauge
        var committed: Gauge
    }

    /// Metrics made through `factory`: the global one (`MetricsSystem.factory`, a no-op until the executable
    /// bootstraps Prometheus) unless a caller passes its own (tests pass `TestMetrics`).
    package init(factory: any MetricsFactory = MetricsSystem.factory) {
        received = MetricCatalog.requestsReceived.counter(factory)
        outcomes = LabelledHandles { key in
            OutcomeHandles(
                count: MetricCatalog.outcomes.counter(factory, key.status, key.code),
                duration: MetricCatalog.requestDuration.timer(factory, key.status))
        }
        supersessions = MetricCatalog.supersessions.counter(factory)
        shares = MetricCatalog.shares.counter(factory)
        requestsInFlight = MetricCatalog.requestsInFlight.gauge(factory)
        runsInFlight = MetricCatalog.runsInFlight.gauge(factory)
        intakePaused = MetricCatalog.intakePaused.gauge(factory)
        assignedPartitions = MetricCatalog.assignedPartitions.gauge(factory)
        rebalances = (
            MetricCatalog.rebalances.counter(factory, "assigned"), MetricCatalog.rebalances.counter(factory, "revoked"),
            MetricCatalog.rebalances.counter(factory, "lost")
        )
        commits = (
            MetricCatalog.offsetCommits.counter(factory, "committed"), MetricCatalog.offsetCommits.counter(factory, "refused"),
            MetricCatalog.offsetCommits.counter(factory, "failed")
        )
        leftUncommitted = MetricCatalog.answersLeftUncommitted.counter(factory)
        transactions = (
            MetricCatalog.transactions.counter(factory, "committed"), MetricCatalog.transactions.counter(factory, "aborted")
        )
        deliveryFailures = LabelledHandles { code in MetricCatalog.outcomeDeliveryFailures.counter(factory, code.rawValue) }
        deliveryRetries = MetricCatalog.outcomeDeliveryRetries.counter(factory)
        progressEvents = (
            MetricCatalog.progressEvents.counter(factory, "published"), MetricCatalog.progressEvents.counter(factory, "failed")
        )
        kafkaConnected = MetricCatalog.kafkaConnected.gauge(factory)
        stored = (MetricCatalog.storedObjects.counter(factory), MetricCatalog.storedBytes.counter(factory))
        storeFailures = LabelledHandles { code in MetricCatalog.storeFailures.counter(factory, code) }
        partitions = LabelledHandles { partition in
            let number = String(partition.partition)
            return PartitionGauges(
                lag: MetricCatalog.consumerLag.gauge(factory, partition.topic, number),
                committed: MetricCatalog.committedOffset.gauge(factory, partition.topic, number))
        }
        // Known from the start: nothing in flight, intake open, nothing assigned.
        for gauge in [requestsInFlight, runsInFlight, intakePaused, assignedPartitions] { gauge.record(0) }
    }

    // MARK: Requests

    /// A request-topic message was read and handed to the machine (whatever became of it).
    func received(_ receipt: WorkerCore.StateMachine.Receipt) {
        received.increment()
        if case .shared = receipt { shares.increment() }
    }

    /// An outcome's delivery report is back: counted by status and code, its duration since the request's
    /// receipt recorded by status.
    func delivered(_ message: OutcomeMessage, nowMs: Int64 = WallClock.nowMilliseconds()) {
        let key: OutcomeKey
        let receivedAt: Int64
        switch message {
        case .result(let result):
            key = OutcomeKey(status: result.status.rawValue, code: "none")
            receivedAt = result.receivedAt
        case .error(let error):
            key = OutcomeKey(status: error.status.rawValue, code: error.error.code.rawValue)
            receivedAt = error.receivedAt
            if error.status == .superseded { supersessions.increment() }
        }
        let handles = outcomes[key]
        handles.count.increment()
        handles.duration.recordMilliseconds(max(0, nowMs - receivedAt))
    }

    /// A layer of a request that had a result store: a completed object is counted with its bytes, a layer that
    /// failed with a store code by the code. Other layers (inline, failed elsewhere) are not the store's.
    func storeObserved(_ layer: ServiceLayerOutcome) {
        switch layer.result {
        case .success(let result):
            if case .stored(let selection) = result.selection {
                stored.objects.increment()
                stored.bytes.increment(by: Int64(selection.bytes))
            }
        case .failure(let error):
            if error.code == .storeUnavailable || error.code == .storeDenied { storeFailures[error.code.rawValue].increment() }
        }
    }

    /// What the machine holds after an event: requests in flight, runs, assigned partitions. Called under the
    /// machine's lock, so the gauges follow the events' order.
    func observe(_ gauges: WorkerCore.StateMachine.Gauges) {
        requestsInFlight.record(gauges.requestsInFlight)
        runsInFlight.record(gauges.runsInFlight)
        assignedPartitions.record(gauges.assignedPartitions)
    }

    /// The partitions were paused in librdkafka (`true`) or resumed (`false`) by flow control.
    func intakePaused(_ paused: Bool) {
        intakePaused.record(paused ? 1 : 0)
    }

    // MARK: Kafka

    /// A rebalance event reached the worker.
    func rebalanced(_ event: KafkaRebalanceEvent) {
        switch event {
        case .assigned: rebalances.assigned.increment()
        case .revoked: rebalances.revoked.increment()
        case .lost: rebalances.lost.increment()
        }
    }

    /// The group coordinator answered a commit of stored offsets (nothing to commit is not counted).
    func transactionEnded(_ outcome: KafkaTransactionOutcome) {
        switch outcome {
        case .committed: transactions.committed.increment()
        case .aborted: transactions.aborted.increment()
        }
    }

    func committed(_ outcome: KafkaCommitOutcome) {
        switch outcome {
        case .committed: commits.committed.increment()
        case .nothingToCommit: break
        case .refusedDuringRebalance: commits.refused.increment()
        case .failed: commits.failed.increment()
        }
    }

    /// Partitions went without a commit, leaving `count` answers their next owner gives again.
    func answersLeftUncommitted(_ count: Int) {
        if count > 0 { leftUncommitted.increment(by: Int64(count)) }
    }

    /// The producer could not deliver an outcome (`code` is the Kafka error's).
    func deliveryFailed(_ code: KafkaError.Code) {
        deliveryFailures[code].increment()
    }

    /// Progress events were delivered (`published`) or not (`failed`).
    func progressPublished(_ count: Int, failed: Int) {
        if count > 0 { progressEvents.published.increment(by: Int64(count)) }
        if failed > 0 { progressEvents.failed.increment(by: Int64(failed)) }
    }

    /// An outcome is sent again after a failed delivery.
    func outcomeResent() {
        deliveryRetries.increment()
    }

    /// The lag and committed offset of every partition the worker owns now, from whoever measures them (the
    /// partition lag monitor); a partition with a nil value keeps its last one. Series of partitions no
    /// longer in `offsets` are removed, so a revoked partition's lag does not linger in every scrape.
    package func recordPartitions(_ offsets: [KafkaTopicPartition: (committed: Int64?, lag: Int64?)]) {
        for gone in partitions.removeAll(where: { offsets[$0] == nil }) {
            gone.lag.destroy()
            gone.committed.destroy()
        }
        for (partition, values) in offsets {
            let gauges = partitions[partition]
            if let lag = values.lag { gauges.lag.record(lag) }
            if let committed = values.committed { gauges.committed.record(committed) }
        }
    }

    /// Whether the worker reaches the cluster and has joined its group (from the consumer's connectivity).
    package func recordKafkaConnected(_ connected: Bool) {
        kafkaConnected.record(connected ? 1 : 0)
    }
}
