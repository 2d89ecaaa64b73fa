import EngineExecution
import Kafka
import Logging
import Metrics
import MetricsTestKit
import Synchronization
import Testing

@testable import QueryWorker

/// Progress is optional for the worker: events that cannot be delivered (here: the cluster refuses the topic
/// to the producer) are counted as failed and said once in the log, however many there are.
@Suite struct ProgressPublisherTests {
    /// Counts the warnings it is given.
    struct WarningCounter: LogHandler {
        let warnings: Warnings
        var logLevel: Logger.Level = .warning
        var metadata: Logger.Metadata = [:]
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            if event.level == .warning { warnings.count.withLock { $0 += 1 } }
        }
    }

    final class Warnings: Sendable { let count = Mutex(0) }

    @Test func undeliverableEventsAreCountedAndWarnedOnce() async throws {
        let quiet = Logger(label: "progress-publisher") { _ in SwiftLogNoOpLogHandler() }
        let cluster = try EmbeddedKafkaCluster(brokers: 1, logger: quiet)
        var configuration = KafkaProducerConfiguration(client: KafkaClientConfiguration(bootstrapServers: [cluster.bootstrapServers]))
        configuration.messageTimeout = .seconds(3)
        let producer = try KafkaProducer(configuration: configuration, logger: quiet)
        let running = Task { try await producer.run() }
        cluster.pushRequestErrors(.produce, Array(repeating: .topicAuthorizationFailed, count: 10))
        let warnings = Warnings()
        let logger = Logger(label: "progress-publisher") { _ in WarningCounter(warnings: warnings) }
        let metrics = TestMetrics()
        let publisher = ProgressPublisher(
            producer: producer, topic: "progress", workerID: "w", metrics: WorkerMetrics(factory: metrics), logger: logger)
        let event = ProgressEvent(requestId: "r", taskId: "t", worker: "w", at: 0, elapsedMs: 0, layers: [])
        publisher.publish([event])
        publisher.publish([event, event])
        let failed = try metrics.expectCounter(MetricCatalog.progressEvents.name, [("result", "failed")])
        for _ in 0..<200 where failed.totalValue < 3 {
            try await Task.sleep(for: .milliseconds(50))
        }
        let published = try metrics.expectCounter(MetricCatalog.progressEvents.name, [("result", "published")])
        #expect(failed.totalValue == 3, "published: \(published.totalValue)")
        #expect(warnings.count.withLock { $0 } == 1, "one warning, not one per event")
        producer.triggerGracefulShutdown()
        try await running.value
        withExtendedLifetime(cluster) {}
    }
}
