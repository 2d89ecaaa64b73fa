import FeatureQuerySupport

/// How a producer batches, acknowledges and bounds its local queue.
package struct KafkaProducerConfiguration: Sendable, Hashable {
    package enum Compression: String, Sendable, Hashable {
        case none, gzip, snappy, lz4, zstd
    }

    package var client: KafkaClientConfiguration
    /// Exactly-once per partition writes: no duplicates from librdkafka's own retries. On by default.
    package var enableIdempotence: Bool
    package var compression: Compression
    package var linger: Duration
    /// The local queue's bound in messages; `send` waits for room instead of growing memory without limit.
    package var queueMaxMessages: Int
    /// The local queue's bound in kilobytes.
    package var queueMaxKilobytes: Int
    /// The largest message the producer sends (librdkafka `message.max.bytes`).
    package var messageMaxBytes: Int
    /// A message not delivered within this time fails with a timeout error.
    package var messageTimeout: Duration
    /// How long shutdown waits for queued messages to be delivered before failing them. `rd_kafka_flush` is
    /// bounded by it, so the producer's `run()` returns about this long (plus a second or two for the failed
    /// reports) after being told to stop, even with the cluster unreachable.
    package var flushTimeout: Duration

    package init(
        client: KafkaClientConfiguration,
        enableIdempotence: Bool = true,
        compression: Compression = .none,
        linger: Duration = .milliseconds(5),
        queueMaxMessages: Int = 100_000,
        queueMaxKilobytes: Int = 256 * 1024,
        messageMaxBytes: Int = 1_000_000,
        messageTimeout: Duration = .seconds(120),
        flushTimeout: Duration = .seconds(10)
    ) {
        self.client = client
        self.enableIdempotence = enableIdempotence
        self.compression = compression
        self.linger = linger
        self.queueMaxMessages = queueMaxMessages
        self.queueMaxKilobytes = queueMaxKilobytes
        self.messageMaxBytes = messageMaxBytes
        self.messageTimeout = messageTimeout
        self.flushTimeout = flushTimeout
    }

    var properties: [(String, String)] {
        orderedProperties(
            client.properties + [
                ("enable.idempotence", enableIdempotence ? "true" : "false"),
                ("compression.codec", compression.rawValue),
                ("linger.ms", String(linger.clampedMilliseconds)),
                ("queue.buffering.max.messages", String(queueMaxMessages)),
                ("queue.buffering.max.kbytes", String(queueMaxKilobytes)),
                ("message.max.bytes", String(messageMaxBytes)),
                ("message.timeout.ms", String(messageTimeout.clampedMilliseconds)),
            ],
            additional: client.additionalProperties
        )
    }
}
