internal import CRDKafka
import FeatureQuerySupport

/// Where to start reading: the partitions of topics, and offsets by time (`rd_kafka_offsets_for_times`).
extension KafkaPartitionReader {
    /// Every partition of these topics, from the cluster's metadata. A topic that does not exist is an error
    /// naming it.
    package func partitions(of topics: [String], timeout: Duration) async throws(KafkaError) -> [KafkaTopicPartition] {
        let handle = self.handle
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        var result: [KafkaTopicPartition] = []
        for topic in topics {
            let answer = await KafkaPollThread.call(name: "kafka-metadata") { Self.partitionCount(handle, topic, timeoutMs) }
            switch answer {
            case .success(let count):
                result += (0..<count).map { KafkaTopicPartition(topic: topic, partition: $0) }
            case .failure(let error):
                throw error
            }
        }
        return result
    }

    /// For each partition, the offset of its first message stamped at or after `timestampMs` (milliseconds
    /// since the epoch), or `nil` when it holds none yet: the next message written there will be the first.
    ///
    /// librdkafka's embedded mock cluster (2.0.2) does not look up times and answers `nil` for every
    /// partition; ``startOffsets(atOrAfterTimestampMs:of:timeout:)`` turns `nil` into the partition's end.
    package func offsets(
        atOrAfterTimestampMs timestampMs: Int64,
        of partitions: [KafkaTopicPartition],
        timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64?] {
        let found = try await handle.listOffsets(partitions.map { ($0, timestampMs) }, timeout: timeout)
        return found.mapValues { $0 >= 0 ? $0 : nil }
    }

    /// Each partition's end (its high watermark): the offset the next message written there gets.
    package func endOffsets(of partitions: [KafkaTopicPartition], timeout: Duration) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        // offsets_for_times with the logical "latest" timestamp asks every leader once, in one call.
        let found = try await handle.listOffsets(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_END)) }, timeout: timeout)
        for (partition, offset) in found where offset < 0 {
            throw KafkaError(code: .offset, message: "the cluster reported no end offset for \(partition)")
        }
        return found
    }

    /// Concrete offsets to ``assign(_:)`` for reading what was stamped from `timestampMs` on: the time
    /// lookup's answer, or the partition's end where nothing that recent is there yet. Both are numbers
    /// fixed before the call returns, so whatever is published afterwards is read.
    package func startOffsets(
        atOrAfterTimestampMs timestampMs: Int64,
        of partitions: [KafkaTopicPartition],
        timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        let byTime = try await offsets(atOrAfterTimestampMs: timestampMs, of: partitions, timeout: timeout)
        let unresolved = partitions.filter { byTime[$0].flatMap { $0 } == nil }
        var result = byTime.compactMapValues { $0 }
        if !unresolved.isEmpty {
            let ends = try await endOffsets(of: unresolved, timeout: timeout)
            result.merge(ends) { byTime, _ in byTime }
        }
        return result
    }

    /// The partition count of one topic, from a metadata request for that topic alone.
    private static func partitionCount(_ handle: RDKafkaHandle, _ topic: String, _ timeoutMs: Int32) -> Result<Int32, KafkaError> {
        guard let rkt = rd_kafka_topic_new(handle.pointer, topic, nil) else {
            return .failure(KafkaError(code: .partition, message: "could not make a topic handle for \(topic)"))
        }
        defer { rd_kafka_topic_destroy(rkt) }
        var metadata: UnsafePointer<rd_kafka_metadata>?
        let err = rd_kafka_metadata(handle.pointer, 0, rkt, &metadata, timeoutMs)
        guard err == RD_KAFKA_RESP_ERR_NO_ERROR, let metadata else {
            return .failure(KafkaError.rdKafka(err, context: "reading the metadata of \(topic)", defaultCode: .partition))
        }
        defer { rd_kafka_metadata_destroy(metadata) }
        guard metadata.pointee.topic_cnt > 0, let topics = metadata.pointee.topics else {
            return .failure(KafkaError(code: .partition, message: "the cluster reported no metadata for topic \(topic)"))
        }
        let entry = topics[0]
        guard entry.err == RD_KAFKA_RESP_ERR_NO_ERROR else {
            return .failure(KafkaError.rdKafka(entry.err, context: "topic \(topic) (does it exist?)", defaultCode: .partition))
        }
        guard entry.partition_cnt > 0 else {
            return .failure(KafkaError(code: .partition, message: "topic \(topic) has no partitions (does it exist?)"))
        }
        return .success(entry.partition_cnt)
    }
}
