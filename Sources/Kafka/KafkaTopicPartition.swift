/// One partition of one topic: the unit of assignment, pausing and offset tracking.
public struct KafkaTopicPartition: Hashable, Sendable, CustomStringConvertible {
    public var topic: String
    public var partition: Int32

    public init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    public var description: String { "\(topic)[\(partition)]" }
}

/// A header on a Kafka message. Values are bytes: Kafka does not promise text.
public struct KafkaHeader: Hashable, Sendable {
    public var key: String
    public var value: [UInt8]?

    public init(key: String, value: [UInt8]?) {
        self.key = key
        self.value = value
    }

    public init(key: String, string: String) {
        self.init(key: key, value: Array(string.utf8))
    }

    /// The value read as UTF-8, or `nil` when it is absent or not valid UTF-8.
    public var stringValue: String? {
        value.flatMap { String(validating: $0, as: UTF8.self) }
    }
}
