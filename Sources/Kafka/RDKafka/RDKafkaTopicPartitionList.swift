internal import CRDKafka
import Glibc

/// Conversions between librdkafka's topic-partition lists and Swift values. A list built here is lent to
/// a closure and destroyed when it returns, so no list outlives the call that needs it.
enum RDKafkaTopicPartitionList {
    static func partitions(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>) -> [KafkaTopicPartition] {
        entries(list).map { $0.partition }
    }

    /// Each entry with its offset and per-partition error.
    static func entries(
        _ list: UnsafePointer<rd_kafka_topic_partition_list_t>
    ) -> [(partition: KafkaTopicPartition, offset: Int64, error: rd_kafka_resp_err_t)] {
        let count = Int(list.pointee.cnt)
        guard count > 0, let elements = list.pointee.elems else { return [] }
        return (0..<count).map { index in
            let element = elements[index]
            let topic = element.topic.map { String(cString: $0) } ?? ""
            return (KafkaTopicPartition(topic: topic, partition: element.partition), element.offset, element.err)
        }
    }

    /// Builds a list (with an optional offset, and commit metadata, for each partition) and lends it to `body`.
    /// The metadata is copied into memory of the C allocator: the list's destruction frees it.
    static func withList<T, E: Error>(
        _ partitions: [(KafkaTopicPartition, Int64?)], metadata: [KafkaTopicPartition: String] = [:],
        _ body: (UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) throws(E) -> T
    ) throws(E) -> T {
        guard let list = rd_kafka_topic_partition_list_new(Int32(clamping: max(1, partitions.count))) else {
            preconditionFailure("rd_kafka_topic_partition_list_new failed to allocate")
        }
        defer { rd_kafka_topic_partition_list_destroy(list) }
        for (topicPartition, offset) in partitions {
            let element = rd_kafka_topic_partition_list_add(list, topicPartition.topic, topicPartition.partition)
            if let offset, let element { element.pointee.offset = offset }
            if let element, let text = metadata[topicPartition], !text.isEmpty {
                let bytes = Array(text.utf8)
                guard let copy = malloc(bytes.count) else { continue }
                bytes.withUnsafeBytes { source in
                    if let base = source.baseAddress { copy.copyMemory(from: base, byteCount: source.count) }
                }
                element.pointee.metadata = copy
                element.pointee.metadata_size = bytes.count
            }
        }
        return try body(list)
    }

    /// Each entry's commit metadata as text (none for an entry without).
    static func metadataTexts(_ list: UnsafePointer<rd_kafka_topic_partition_list_t>) -> [KafkaTopicPartition: String] {
        let count = Int(list.pointee.cnt)
        guard count > 0, let elements = list.pointee.elems else { return [:] }
        var texts: [KafkaTopicPartition: String] = [:]
        for index in 0..<count {
            let element = elements[index]
            guard let metadata = element.metadata, element.metadata_size > 0 else { continue }
            let bytes = UnsafeRawBufferPointer(start: metadata, count: element.metadata_size)
            let topic = element.topic.map { String(cString: $0) } ?? ""
            texts[KafkaTopicPartition(topic: topic, partition: element.partition)] = String(decoding: bytes, as: UTF8.self)
        }
        return texts
    }

    static func withList<T, E: Error>(
        _ partitions: [KafkaTopicPartition],
        _ body: (UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) throws(E) -> T
    ) throws(E) -> T {
        try withList(partitions.map { ($0, nil) }, body)
    }
}
