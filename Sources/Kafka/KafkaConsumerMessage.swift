/// A message read from Kafka.
///
/// Key and value are delivered exactly as the broker holds them: either may be absent, and neither is
/// required to be UTF-8. The caller decides what a malformed message means.
///
/// A message read by a consumer keeps librdkafka's own copy alive and copies key, value and headers only
/// when they are read, so the poll thread does no per-message allocation beyond this value.
package struct KafkaConsumerMessage: Sendable, Hashable {
    package var topic: String
    package var partition: Int32
    package var offset: Int64
    /// Milliseconds since the epoch, as set by the producer or the broker; `nil` when not available.
    package var timestampMs: Int64?
    private var payload: Payload

    enum Payload: Sendable {
        case owned(key: [UInt8]?, value: [UInt8]?, headers: [KafkaHeader])
        case librdkafka(RDKafkaMessageStorage)
    }

    /// A message that owns its bytes, as the consumer's tests build one; only the consumer reads real ones.
    package init(
        topic: String,
        partition: Int32,
        offset: Int64,
        timestampMs: Int64? = nil,
        key: [UInt8]? = nil,
        value: [UInt8]? = nil,
        headers: [KafkaHeader] = []
    ) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.timestampMs = timestampMs
        self.payload = .owned(key: key, value: value, headers: headers)
    }

    init(topic: String, partition: Int32, offset: Int64, timestampMs: Int64?, storage: RDKafkaMessageStorage) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
        self.timestampMs = timestampMs
        self.payload = .librdkafka(storage)
    }

    package var key: [UInt8]? {
        get {
            switch payload {
            case .owned(let key, _, _): key
            case .librdkafka(let storage): storage.key
            }
        }
        set { payload = .owned(key: newValue, value: value, headers: headers) }
    }

    package var value: [UInt8]? {
        get {
            switch payload {
            case .owned(_, let value, _): value
            case .librdkafka(let storage): storage.value
            }
        }
        set { payload = .owned(key: key, value: newValue, headers: headers) }
    }

    package var headers: [KafkaHeader] {
        get {
            switch payload {
            case .owned(_, _, let headers): headers
            case .librdkafka(let storage): storage.headers
            }
        }
        set { payload = .owned(key: key, value: value, headers: newValue) }
    }

    package var topicPartition: KafkaTopicPartition { KafkaTopicPartition(topic: topic, partition: partition) }

    /// The key read as UTF-8, or `nil` when absent or not valid UTF-8.
    package var keyString: String? { key.flatMap { String(validating: $0, as: UTF8.self) } }
    /// The value read as UTF-8, or `nil` when absent or not valid UTF-8.
    package var valueString: String? { value.flatMap { String(validating: $0, as: UTF8.self) } }

    /// The first header with this key.
    package func header(_ key: String) -> KafkaHeader? { headers.first { $0.key == key } }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.topic == rhs.topic && lhs.partition == rhs.partition && lhs.offset == rhs.offset
            && lhs.timestampMs == rhs.timestampMs && lhs.key == rhs.key && lhs.value == rhs.value
            && lhs.headers == rhs.headers
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(topic)
        hasher.combine(partition)
        hasher.combine(offset)
    }
}

/// A message to publish.
package struct KafkaProducerMessage: Sendable, Hashable {
    package var topic: String
    /// `nil` lets the partitioner choose from the key (the same key always lands on the same partition).
    package var partition: Int32?
    package var key: [UInt8]?
    package var value: [UInt8]?
    package var headers: [KafkaHeader]
    /// The message's CreateTime in milliseconds since the epoch; `nil` stamps it when it is produced. Set only to
    /// replay or simulate old messages (a topic whose `message.timestamp.type` is LogAppendTime ignores it).
    package var timestampMs: Int64?

    package init(
        topic: String,
        partition: Int32? = nil,
        key: [UInt8]? = nil,
        value: [UInt8]? = nil,
        headers: [KafkaHeader] = [],
        timestampMs: Int64? = nil
    ) {
        self.topic = topic
        self.partition = partition
        self.key = key
        self.value = value
        self.headers = headers
        self.timestampMs = timestampMs
    }

    package init(
        topic: String, partition: Int32? = nil, key: String?, value: String, headers: [KafkaHeader] = [],
        timestampMs: Int64? = nil
    ) {
        self.init(
            topic: topic, partition: partition, key: key.map { Array($0.utf8) }, value: Array(value.utf8), headers: headers,
            timestampMs: timestampMs)
    }
}

/// Where the cluster stored a delivered message.
package struct KafkaDeliveryReport: Sendable, Hashable {
    package var topic: String
    package var partition: Int32
    package var offset: Int64
}
