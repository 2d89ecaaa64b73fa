internal import CRDKafka
package import Logging
import ServiceLifecycle
import Synchronization
import FeatureQuerySupport

/// A consumer that reads partitions it is given, from offsets it is given, without joining a group.
///
/// For readers that want what is published from a point on (a command-line client waiting for one reply):
/// joining a group costs a rebalance (about 3 s on the embedded cluster, more on a busy one) and resolves
/// its start positions only after the join, while here the start offsets are concrete numbers the caller
/// resolved beforehand (``startOffsets(atOrAfterTimestampMs:of:timeout:)``), so a message published after
/// that call cannot be missed. Nothing is committed.
///
/// The messages are buffered without bound between the poll thread and ``messages``: a reader of a point
/// in time onward reads little, and the caller stops the reader when it has what it wants.
package final class KafkaPartitionReader: Service, Sendable {
    let handle: RDKafkaHandle
    let logger: Logger
    let thread: KafkaServiceThread
    private let stream: AsyncThrowingStream<KafkaConsumerMessage, any Error>
    private let continuation: AsyncThrowingStream<KafkaConsumerMessage, any Error>.Continuation
    private let stopRequested = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)

    /// Creates the reader and checks every property. Nothing is fetched until ``assign(_:)`` and ``run()``.
    ///
    /// - Parameter fetchWaitMax: librdkafka's `fetch.wait.max.ms` (`nil`: librdkafka's 500 ms); see
    ///   ``EmbeddedKafkaCluster/fetchWaitMax`` for why an embedded cluster needs a short one.
    package init(client: KafkaClientConfiguration, fetchWaitMax: Duration? = nil, logger: Logger) throws(KafkaError) {
        var typed = client.properties + [
            // librdkafka assigns only with a group handle; the group is never joined and nothing is committed.
            ("group.id", "query-worker-partition-reader"),
            ("enable.auto.commit", "false"),
            ("enable.auto.offset.store", "false"),
            ("enable.partition.eof", "false"),
        ]
        if let fetchWaitMax { typed.append(("fetch.wait.max.ms", String(fetchWaitMax.clampedMilliseconds))) }
        let handle = try RDKafkaHandle(
            kind: .consumer, properties: orderedProperties(typed, additional: client.additionalProperties),
            context: RDKafkaCallbackContext(logger: logger))
        rd_kafka_poll_set_consumer(handle.pointer)
        self.handle = handle
        self.logger = logger
        self.thread = KafkaServiceThread(stopTimeout: .seconds(5))
        let (stream, continuation) = AsyncThrowingStream<KafkaConsumerMessage, any Error>.makeStream()
        self.stream = stream
        self.continuation = continuation
    }

    /// The messages of the assigned partitions, in order per partition. Ends when the reader stops. One
    /// reader at a time.
    package var messages: AsyncThrowingStream<KafkaConsumerMessage, any Error> { stream }

    /// Starts reading these partitions at these offsets (or ``beginning``), replacing any earlier assignment.
    package func assign(_ offsets: [KafkaTopicPartition: Int64]) throws(KafkaError) {
        let rk = handle.pointer
        let err = RDKafkaTopicPartitionList.withList(offsets.map { ($0.key, Optional($0.value)) }) { rd_kafka_assign(rk, $0) }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(err, context: "assigning \(offsets.keys.sorted { $0.description < $1.description })", defaultCode: .partition)
        }
    }

    /// The offset meaning "the oldest message the partition still holds", for ``assign(_:)``.
    package static let beginning = Int64(RD_KAFKA_OFFSET_BEGINNING)

    /// Reads until graceful shutdown or cancellation, then closes the client; ``messages`` then ends.
    package func run() async throws {
        guard !started.exchange(true, ordering: .sequentiallyConsistent) else {
            throw KafkaError(code: .shutdown, message: "KafkaPartitionReader.run() was called twice")
        }
        defer { continuation.finish() }
        try await KafkaPollThread.runService(name: "kafka-reader", handle: handle, thread: thread) {
            self.pollLoop()
        } stop: {
            self.triggerGracefulShutdown()
        }
    }

    /// Stops reading; ``run()`` returns once the client is closed.
    package func triggerGracefulShutdown() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        thread.stopRequested()
    }

    /// How long one poll blocks: a stop is seen within it. Short, since a reader's caller often stops it as
    /// soon as it has its message; 50 empty polls a second cost nothing measurable.
    static let pollTimeoutMs: Int32 = 20

    private func pollLoop() {
        let rk = handle.pointer
        var topicNames: [OpaquePointer: String] = [:]
        while !stopRequested.load(ordering: .relaxed) {
            if handle.context.fatalError.withLock({ $0 }) != nil { break }
            guard let message = rd_kafka_consumer_poll(rk, Self.pollTimeoutMs) else { continue }
            let raw = message.pointee
            guard raw.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                logger.warning("reader error", metadata: ["error": "\(KafkaError.rdKafka(raw.err, context: "consume"))"])
                rd_kafka_message_destroy(message)
                continue
            }
            var topic = ""
            if let rkt = raw.rkt {
                topic = topicNames[rkt] ?? rd_kafka_topic_name(rkt).map { String(cString: $0) } ?? ""
                topicNames[rkt] = topic
            }
            continuation.yield(KafkaConsumerMessage(rdKafkaMessage: message, topic: topic, client: handle))
        }
        _ = rd_kafka_consumer_close(rk)
        if let fatal = handle.context.fatalError.withLock({ $0 }) {
            continuation.finish(throwing: fatal)
        } else {
            continuation.finish()
        }
    }
}
