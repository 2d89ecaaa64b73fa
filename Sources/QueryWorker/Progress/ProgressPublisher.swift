import Kafka
import Logging
import Synchronization

/// Publishes progress events on the progress topic, with the worker's ordinary producer and outside any
/// transaction: events are advisory, so they need neither the exactly-once mode's transactions (whose
/// producer only the outcomes use) nor a producer of their own (another connection per broker for a few small
/// messages a second). They share the producer's queue with the outcomes; librdkafka bounds it.
///
/// Optional for the worker: a missing topic or a failed delivery costs a metric and, once per worker, a
/// warning; the request is never affected and nothing is sent again.
final class ProgressPublisher: Sendable {
    let producer: KafkaProducer
    let topic: String
    /// Written into every event's `worker`.
    let workerID: String
    let logger: Logger
    let metrics: WorkerMetrics
    private let warned = Atomic<Bool>(false)

    init(producer: KafkaProducer, topic: String, workerID: String, metrics: WorkerMetrics, logger: Logger) {
        self.producer = producer
        self.topic = topic
        self.workerID = workerID
        self.metrics = metrics
        self.logger = logger
    }

    /// Queues `events` and counts their delivery in a task of their own: the caller (an engine's page loop)
    /// never waits for Kafka.
    func publish(_ events: [ProgressEvent]) {
        guard !events.isEmpty else { return }
        let messages = events.map { $0.producerMessage(topic: topic) }
        Task { [self] in
            let reports = await producer.send(messages)
            var failure: KafkaError?
            var failed = 0
            for case .failure(let error) in reports {
                failure = failure ?? error
                failed += 1
            }
            metrics.progressPublished(reports.count - failed, failed: failed)
            if let failure { warnOnce(failure) }
        }
    }

    private func warnOnce(_ error: KafkaError) {
        guard warned.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged else { return }
        logger.warning(
            "progress events could not be published; requests are unaffected (said once; the metric progress_events_total counts them)",
            metadata: ["topic": "\(topic)", "error.code": "\(error.code.rawValue)", "error.message": "\(error.message)"])
    }
}
