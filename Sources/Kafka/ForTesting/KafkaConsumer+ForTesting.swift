internal import CRDKafka
import FeatureQuerySupport
import Synchronization

/// What this package's tests ask a consumer beyond the public API: single partitions paused and resumed (the
/// worker pauses all of them, ``KafkaConsumer/pauseAll()``).
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
}

extension KafkaProducer {
    /// Number of messages queued or in flight.
    package var queuedCount: Int { Int(rd_kafka_outq_len(handle.pointer)) }
}
