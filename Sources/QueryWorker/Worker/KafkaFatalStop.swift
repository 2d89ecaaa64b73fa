package import Kafka

/// Why `query-worker run` stopped on its own: a Kafka client of the worker failed fatally (librdkafka's
/// `RD_KAFKA_RESP_ERR__FATAL`: an idempotent producer whose sequence or epoch the cluster no longer accepts,
/// a fenced transactional producer). The client cannot be used again, so the worker stops and exits with
/// ``exitCode``; the orchestrator's restart makes new clients.
///
/// Transient errors (every broker down, transport failures, timeouts) never end up here: librdkafka retries
/// them, and the worker waits, not ready, logging `waiting for the Kafka cluster`.
package struct KafkaFatalStop: Error, Sendable, CustomStringConvertible {
    /// The process's exit status after a fatal Kafka error (documented in docs/operations.md): distinct from
    /// 1 (bad settings, a failure at start) so an orchestrator or a person can tell them apart.
    package static let exitCode: Int32 = 3

    /// The error's code, for logs and tests.
    package let code = "kafka_fatal"
    /// The client's fatal error, as librdkafka described it.
    package let error: KafkaError
    /// A restart with new clients may succeed.
    package let isRetryable = true

    package init(_ error: KafkaError) {
        self.error = error
    }

    /// The fatal error of whichever client failed (the producer's first: its failure is the likelier cause of
    /// the consumer's), or nil when neither did.
    static func of(producer: KafkaProducer, consumer: KafkaConsumer) -> KafkaFatalStop? {
        (producer.fatalError ?? consumer.fatalError).map(KafkaFatalStop.init)
    }

    package var description: String {
        "a Kafka client failed fatally and cannot be used again (\(error.rdKafkaName ?? error.code.rawValue)): \(error.message); "
            + "the worker stops so that a restart makes new clients"
    }
}
