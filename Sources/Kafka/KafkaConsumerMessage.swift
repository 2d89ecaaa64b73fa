/// A message read from Kafka.
///
/// Key and value are delivered exactly as the broker holds them: either may be absent, and neither is
/// required to be UTF-8. The caller decides what a malformed message means.
///
/// A message read by a consumer keeps librdkafka's own copy alive and copies key, value and headers only
/// when they are read, so the poll thread does no per-message allocation beyond this value.
public struct KafkaConsumerMessage: Sendable, Hashable {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
    /// Milliseconds since the epoch, as set by the producer or the broker; `nil` when not available.
    public var timestampMs: Int64?
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

    public var key: [UInt8]? {
        get {
            switch payload {
            case .owned(let key, _, _): key
            case .librdkafka(let storage): storage.key
            }
        }
        set { payload = .owned(key: newValue, value: value, headers: headers) }
    }

    public var value: [UInt8]? {
        get {
            switch payload {
            case .owned(_, let value, _): value
            case .librdkafka(let storage): storage.value
            }
        }
        set { payload = .owned(key: key, value: newValue, headers: headers) }
    }

    public var headers: [KafkaHeader] {
        get {
            switch payload {
            case .owned(_, _, let headers): headers
            case .librdkafka(let storage): storage.headers
            }
        }
        set { payload = .owned(key: key, value: value, headers: newValue) }
    }

    public var topicPartition: KafkaTopicPartition { KafkaTopicPartition(topic: topic, partition: partition) }

    /// The key read as UTF-8, or `nil` when absent or not valid UTF-8.
    public var keyString: String? { key.flatMap { String(validating: $0, as: UTF8.self) } }
    /// The value read as UTF-8, or `nil` when absent or not valid UTF-8.
    public var valueString: String? { value.flatMap { String(validating: $0, as: UTF8.self) } }

    /// The first header with this key.
    public func header(_ key: String) -> KafkaHeader? { headers.first { $0.key == key } }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.topic == rhs.topic && lhs.partition == rhs.partition && lhs.offset == rhs.offset
            && lhs.timestampMs == rhs.timestampMs && lhs.key == rhs.key && lhs.value == rhs.value
            && lhs.headers == rhs.headers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(topic)
        hasher.combine(partition)
        hasher.combine(offset)
    }
}

/// A message to publish.
public struct KafkaProducerMessage: Sendable, Hashable {
    public var topic: String
    /// `nil` lets the partitioner choose from the key (the same key always lands on the same partition).
    public var partition: Int32?
    public var key: [UInt8]?
    public var value: [UInt8]?
    public var headers: [KafkaHeader]
    /// The message's CreateTime in milliseconds since the epoch; `nil` stamps it when it is produced. Set only to
    /// replay or simulate old messages (a topic whose `message.timestamp.type` is LogAppendTime ignores it).
    public var timestampMs: Int64?

    public init(
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

    public init(
        topic: String, partition: Int32? = nil, key: String?, value: String, headers: [KafkaHeader] = [],
        timestampMs: Int64? = nil
    ) {
        self.init(
            topic: topic, partition: partition, key: key.map { Array($0.utf8) }, value: Array(value.utf8), headers: headers,
            timestampMs: timestampMs)
    }
}

/// Where the cluster stored a delivered message.
public struct KafkaDeliveryReport: Sendable, Hashable {
    public var topic: String
    public var partition: Int32
    public var offset: Int64
}
