internal import CRDKafka
import FeatureQuerySupport

/// What this package's tests ask a consumer beyond the public API: single partitions paused and resumed (the
/// worker pauses all of them, ``KafkaConsumer/pauseAll()``), and the group's committed offsets as the broker
/// holds them.
extension KafkaConsumer {
    /// Stops fetching these partitions without leaving the group. Messages already read are still delivered.
    package func pause(_ partitions: [KafkaTopicPartition]) {
        core.withPauseChanges(handle.pointer) { $0.pause(partitions) }
    }

    package func resume(_ partitions: [KafkaTopicPartition]) {
        core.withPauseChanges(handle.pointer) { $0.resume(partitions) }
    }

    package func isPaused(_ partition: KafkaTopicPartition) -> Bool {
        core.state.withLock { $0.isPaused(partition) }
    }

    /// The group's committed offsets for these partitions, as the broker holds them. Partitions with no
    /// committed offset are absent from the result.
    package func committedOffsets(
        for partitions: [KafkaTopicPartition],
        timeout: Duration = .seconds(10)
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        let handle = self.handle
        let timeoutMs = Int32(clamping: timeout.clampedMilliseconds)
        let result = await KafkaPollThread.call(name: "kafka-committed") {
            RDKafkaTopicPartitionList.withList(partitions) { list in
                let err = rd_kafka_committed(handle.pointer, list, timeoutMs)
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
}

extension KafkaProducer {
    /// Number of messages queued or in flight.
    package var queuedCount: Int { Int(rd_kafka_outq_len(handle.pointer)) }
}
