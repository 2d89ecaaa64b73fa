import Foundation
import Kafka
import Logging

/// Whole outcomes read from the results and errors topics.
///
/// The consumer joins a consumer group of its own (a fresh id each time) and reads both topics **from their
/// beginning**, skipping other requests' outcomes by their `request-id` header without parsing them. Reading
/// from the end would be cheaper on a long topic, but it races: librdkafka resolves "the end" only after the
/// partitions are assigned, by a round trip of its own, and a fast worker (a rejection takes a millisecond)
/// can publish the outcome before that — the reader would then wait for an outcome it already skipped.
/// From the beginning, the outcome is found whenever it was published. Nothing is committed, so the group
/// leaves no offsets behind.
///
/// One iterator for the stream's whole life: an iterator takes messages in batches, and a second one would
/// drop the rest of the first one's batch.
struct OutcomeStream {
    let consumer: KafkaConsumer
    /// Outcome messages stamped (by their producer, in milliseconds since the epoch) before this are
    /// skipped: an earlier request's outcome under a reused requestId is not this request's.
    let notBeforeMs: Int64?
    private var iterator: KafkaConsumerMessages.AsyncIterator
    private var collector: OutcomeCollector

    init(consumer: KafkaConsumer, wanted: Set<String>?, notBeforeMs: Int64?) {
        self.consumer = consumer
        self.notBeforeMs = notBeforeMs
        iterator = consumer.messages.makeAsyncIterator()
        collector = OutcomeCollector(wanted: wanted)
    }

    /// The next whole outcome; `nil` when the stream ended (its deadline passed).
    mutating func next() async throws -> OutcomeCollector.Completed? {
        while let message = try await iterator.next() {
            if let notBeforeMs, let stamp = message.timestampMs, stamp < notBeforeMs { continue }
            if collector.skips(requestIdHeader: message.header("request-id")?.stringValue) { continue }
            guard let value = message.value else { continue }
            if let completed = try collector.add(value) { return completed }
        }
        return nil
    }

    /// Runs `body` with a stream over `topics` that ends at `deadline`, then stops the consumer.
    ///
    /// The deadline stops the consumer rather than racing each read, so `body` sees a `nil` from
    /// ``next()`` and can report what is missing.
    static func withStream<T>(
        client: KafkaClientConfiguration,
        topics: [String],
        wanted: Set<String>?,
        notBeforeMs: Int64? = nil,
        deadline: ContinuousClock.Instant,
        logger: Logger,
        _ body: (inout OutcomeStream) async throws -> T
    ) async throws -> T {
        let consumer = try KafkaConsumer(
            configuration: KafkaConsumerConfiguration(
                client: client, groupID: "query-worker-reader-\(UUID().uuidString.prefix(12).lowercased())",
                topics: topics, autoOffsetReset: .earliest),
            logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await consumer.run() }
            group.addTask {
                try? await Task.sleep(until: deadline)
                consumer.triggerGracefulShutdown()
            }
            var stream = OutcomeStream(consumer: consumer, wanted: wanted, notBeforeMs: notBeforeMs)
            let result: Result<T, any Error>
            do {
                result = .success(try await body(&stream))
            } catch {
                result = .failure(error)
            }
            consumer.triggerGracefulShutdown()
            group.cancelAll()
            try await group.waitForAll()
            return try result.get()
        }
    }
}
