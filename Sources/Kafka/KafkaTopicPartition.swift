/// One partition of one topic: the unit of assignment, pausing and offset tracking.
package struct KafkaTopicPartition: Hashable, Sendable, CustomStringConvertible {
    package var topic: String
    package var partition: Int32

    package init(topic: String, partition: Int32) {
        self.topic = topic
        self.partition = partition
    }

    package var description: String { "\(topic)[\(partition)]" }
}

/// A header on a Kafka message. Values are bytes: Kafka does not promise text.
package struct KafkaHeader: Hashable, Sendable {
    package var key: String
    package var value: [UInt8]?

    package init(key: String, value: [UInt8]?) {
        self.key = key
        self.value = value
    }

    package init(key: String, string: String) {
        self.init(key: key, value: Array(string.utf8))
    }

    /// The value read as UTF-8, or `nil` when it is absent or not valid UTF-8.
    package var stringValue: String? {
        value.flatMap { String(validating: $0, as: UTF8.self) }
    }
}
