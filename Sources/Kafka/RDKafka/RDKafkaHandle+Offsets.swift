internal import CRDKafka
import FeatureQuerySupport

/// Offset lookups any client makes through its handle: a group member's lag (``KafkaConsumer/committedLag(for:timeout:)``)
/// and a partition reader's start offsets share them.
extension RDKafkaHandle {
    /// `rd_kafka_offsets_for_times` for each (partition, timestamp or logical offset), on a thread of its own
    /// because it blocks: one request per partition leader, all partitions together. A logical "latest"
    /// (`RD_KAFKA_OFFSET_END`) or "earliest" (`RD_KAFKA_OFFSET_BEGINNING`) asks for the partition's real end or
    /// start, not librdkafka's cached watermark.
    func listOffsets(
        _ queries: [(KafkaTopicPartition, Int64)],
        timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        guard !queries.isEmpty else { return [:] }
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        let sendable = queries.map { (partition: $0.0, value: $0.1) }
        let (err, entries) = await KafkaPollThread.call(name: "kafka-offsets-for-times") {
            RDKafkaTopicPartitionList.withList(sendable.map { ($0.partition, Optional($0.value)) }) { list in
                let err = rd_kafka_offsets_for_times(self.pointer, list, timeoutMs)
                return (err, RDKafkaTopicPartitionList.entries(list))
            }
        }
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(err, context: "looking up offsets", defaultCode: .offset)
        }
        var result: [KafkaTopicPartition: Int64] = [:]
        for entry in entries {
            guard entry.error == RD_KAFKA_RESP_ERR_NO_ERROR else {
                throw KafkaError.rdKafka(entry.error, context: "looking up offsets of \(entry.partition)", defaultCode: .offset)
            }
            result[entry.partition] = entry.offset
        }
        return result
    }

    /// The group's committed offsets for these partitions (`rd_kafka_committed`, a request to the group
    /// coordinator, on a thread of its own). Partitions with no committed offset are absent.
    func committedOffsets(
        for partitions: [KafkaTopicPartition], timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        guard !partitions.isEmpty else { return [:] }
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        let result = await KafkaPollThread.call(name: "kafka-committed") {
            RDKafkaTopicPartitionList.withList(partitions) { list in
                let err = rd_kafka_committed(self.pointer, list, timeoutMs)
                return (err, RDKafkaTopicPartitionList.entries(list))
            }
        }
        guard result.0 == RD_KAFKA_RESP_ERR_NO_ERROR else {
            throw KafkaError.rdKafka(result.0, context: "reading committed offsets", defaultCode: .offset)
        }
        var offsets: [KafkaTopicPartition: Int64] = [:]
        for entry in result.1 where entry.offset >= 0 {
            offsets[entry.partition] = entry.offset
        }
        return offsets
    }

    /// librdkafka's cached watermarks (low, high) of one partition, refreshed by fetch responses: no network
    /// call, possibly stale. `nil` when not known yet.
    func cachedWatermarks(_ partition: KafkaTopicPartition) -> (low: Int64, high: Int64)? {
        var low: Int64 = -1
        var high: Int64 = -1
        let err = rd_kafka_get_watermark_offsets(pointer, partition.topic, partition.partition, &low, &high)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, high >= 0 else { return nil }
        return (low, high)
    }

    /// The client's position in each partition (the offset after the last message it was handed by librdkafka),
    /// from local state. Partitions with no position yet are absent.
    func positions(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        guard !partitions.isEmpty else { return [:] }
        let entries = RDKafkaTopicPartitionList.withList(partitions) { list in
            _ = rd_kafka_position(pointer, list)
            return RDKafkaTopicPartitionList.entries(list)
        }
        var result: [KafkaTopicPartition: Int64] = [:]
        for entry in entries where entry.error == RD_KAFKA_RESP_ERR_NO_ERROR && entry.offset >= 0 {
            result[entry.partition] = entry.offset
        }
        return result
    }
}
