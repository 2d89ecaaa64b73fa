import Authentication
import EngineExecution
import FeatureService
import FeatureQuerySupport
import Kafka
import Metrics
import MetricsTestKit
import Testing
import WorkerTestSupport

@testable import QueryWorker

/// The metric catalog's own rules, and the Kafka gauges the lag monitor sets through ``WorkerMetrics``.
@Suite("Worker metrics")
struct WorkerMetricsTests {
    @Test func theCatalogNamesEachMetricOnceWithBoundedLabelsAndHelp() {
        let names = MetricCatalog.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.count == 34)
        for metric in MetricCatalog.all {
            #expect(metric.name.hasPrefix("query_worker_"))
            #expect(!metric.help.isEmpty && !metric.help.contains("\n"), "\(metric.name)")
            // Prometheus conventions: counters end in _total, durations are histograms in seconds.
            #expect(metric.kind != .counter || metric.name.hasSuffix("_total"), "\(metric.name)")
            #expect(metric.kind != .histogram || metric.name.hasSuffix("_seconds"), "\(metric.name)")
            let unbounded: Set<String> = ["url", "path", "requestId", "request_id", "taskId", "task_id", "token", "secret"]
            #expect(unbounded.isDisjoint(with: metric.labels), "\(metric.name)")
            #expect(MetricCatalog.metric(named: metric.name) == metric)
        }
        #expect(MetricCatalog.metric(named: "query_worker_nothing_total") == nil)
    }

    @Test func everyMetricTheWorkerAndEnginesMakeIsCatalogued() throws {
        let metrics = TestMetrics()
        let worker = WorkerMetrics(factory: metrics)
        worker.rebalanced(.lost([KafkaTopicPartition(topic: "requests", partition: 0)]))
        worker.deliveryFailed(.delivery)
        worker.outcomeResent()
        worker.intakePaused(true)
        worker.recordPartitions([KafkaTopicPartition(topic: "requests", partition: 0): (committed: 5, lag: 2)])
        worker.recordKafkaConnected(true)
        let stored = StoredSelection(
            kind: .features, url: "s3://results/k", httpURL: "https://s3/k", expiresAt: 0, bytes: 1_234, sha256: "00",
            contentType: "application/geo+json", contentEncoding: nil, count: 3)
        worker.storeObserved(ServiceLayerOutcome(url: "l", result: .success(ServiceLayerResult(url: "l", count: 3, isComplete: true, selection: .stored(stored)))))
        worker.storeObserved(ServiceLayerOutcome(url: "l", result: .failure(FeatureServiceError(.storeUnavailable, "down", layer: "l"))))
        let engine = EngineMetrics(factory: metrics)
        engine.host("https://gis.example.com").exchanged(status: 503, duration: .milliseconds(3))
        engine.host("https://gis.example.com").retried(delay: .seconds(2), retryAfter: .seconds(2))
        engine.cache.hit()
        #expect(MetricsCatalogCheck.mismatches(metrics).isEmpty, "\(MetricsCatalogCheck.mismatches(metrics))")
        let made = Set(metrics.counters.map(\.label) + metrics.recorders.map(\.label) + metrics.timers.map(\.label))
        // Everything but the token metrics (the authenticator's, checked in AuthenticationTests), the outcome
        // metrics, which need a delivered outcome (the end-to-end test), and the trace-context counter (the
        // tracing end-to-end test), and the heap trim's counter (HeapTrimTests).
        let elsewhere: Set = [MetricCatalog.memoryTrimmedBytes.name,
            TokenMetrics.tokenFetches.name, TokenMetrics.tokenRefreshFailures.name, TokenMetrics.credentialCacheEntries.name,
            MetricCatalog.outcomes.name,
            MetricCatalog.requestDuration.name, MetricCatalog.traceContextInvalid.name,
        ]
        #expect(made == Set(MetricCatalog.all.map(\.name)).subtracting(elsewhere))
        #expect(try metrics.expectCounter(MetricCatalog.outcomeDeliveryFailures.name, [("code", "delivery")]).totalValue == 1)
        #expect(try metrics.expectGauge(MetricCatalog.intakePaused.name).lastValue == 1)
        #expect(try metrics.expectCounter(MetricCatalog.storedBytes.name).totalValue == 1_234)
        #expect(try metrics.expectCounter(MetricCatalog.storeFailures.name, [("code", "store_unavailable")]).totalValue == 1)
        #expect(
            try metrics.expectCounter(EngineMetrics.httpRequests.name, [("host", "gis.example.com"), ("status_class", "5xx")])
                .totalValue == 1)
        #expect(
            try metrics.expectCounter(EngineMetrics.httpRequests.name, [("host", "gis.example.com"), ("status_class", "2xx")])
                .totalValue == 0)
    }

    @Test func partitionGaugesFollowTheAssignmentAndRevokedPartitionsLeave() throws {
        let metrics = TestMetrics()
        let worker = WorkerMetrics(factory: metrics)
        let (p0, p1) = (KafkaTopicPartition(topic: "requests", partition: 0), KafkaTopicPartition(topic: "requests", partition: 1))
        worker.recordPartitions([p0: (committed: 100, lag: 7), p1: (committed: 40, lag: 0)])
        #expect(try Self.gauge(metrics, MetricCatalog.consumerLag, p0) == 7)
        #expect(try Self.gauge(metrics, MetricCatalog.committedOffset, p0) == 100)
        #expect(try Self.gauge(metrics, MetricCatalog.consumerLag, p1) == 0)
        // p1 revoked; p0's lag unknown this time (kept), its commit moved on.
        worker.recordPartitions([p0: (committed: 105, lag: nil)])
        #expect(try Self.gauge(metrics, MetricCatalog.consumerLag, p0) == 7)
        #expect(try Self.gauge(metrics, MetricCatalog.committedOffset, p0) == 105)
        #expect(metrics.recorders(label: MetricCatalog.consumerLag.name).count == 1)
        #expect(metrics.recorders(label: MetricCatalog.committedOffset.name).count == 1)
        // Assigned again: its series comes back.
        worker.recordPartitions([p0: (committed: 105, lag: 1), p1: (committed: 41, lag: 3)])
        #expect(try Self.gauge(metrics, MetricCatalog.consumerLag, p1) == 3)
        worker.recordKafkaConnected(false)
        #expect(try metrics.expectGauge(MetricCatalog.kafkaConnected.name).lastValue == 0)
    }

    static func gauge(_ metrics: TestMetrics, _ metric: MetricDescription, _ partition: KafkaTopicPartition) throws -> Double? {
        try metrics.expectGauge(metric.name, [("topic", partition.topic), ("partition", String(partition.partition))]).lastValue
    }
}
