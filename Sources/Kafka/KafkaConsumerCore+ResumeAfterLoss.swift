internal import CRDKafka
import Logging
import Synchronization
import FeatureQuerySupport

/// A member that lost its partitions (its session timed out: every broker was away longer than
/// `session.timeout.ms`) resumes them, if they come back to it, after what it had already finished.
///
/// Offsets stored since the last automatic commit cannot be committed once the assignment is lost (the
/// coordinator no longer knows the member), so the partitions would be read again from the last commit and
/// every request finished in that window answered twice. The consumer remembers the next offsets it stored
/// (``noteStored(_:)``); at the next assignment of such a partition it asks the coordinator for the committed
/// offset and, when that is behind what it stored, starts there instead and stores it again (committed with
/// the next automatic commit). When another member moved the partition on meanwhile, its committed offset is
/// not behind, and the assignment starts from it as usual: nothing is skipped that was not finished here.
final class StoredOffsetMemory: Sendable {
    private let next = Mutex<[KafkaTopicPartition: Int64]>([:])

    /// The consumer stored these next offsets (librdkafka accepted them).
    func noteStored(_ offsets: [KafkaTopicPartition: Int64]) {
        next.withLock { next in
            for (partition, offset) in offsets where offset > next[partition] ?? Int64.min { next[partition] = offset }
        }
    }

    /// A normal revocation commits the stored offsets: nothing to remember.
    func forget(_ partitions: [KafkaTopicPartition]) {
        next.withLock { next in for partition in partitions { next[partition] = nil } }
    }

    /// The remembered offsets of `partitions`, taken out (each is used by one assignment at most).
    func take(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: Int64] {
        next.withLock { next in
            var taken: [KafkaTopicPartition: Int64] = [:]
            for partition in partitions { taken[partition] = next.removeValue(forKey: partition) }
            return taken
        }
    }
}

extension KafkaConsumerCore {
    /// How long an assignment waits for the committed offsets of partitions it may resume.
    static let committedQueryTimeout = Duration.seconds(5)

    /// For an assignment about to be applied: sets, in `list`, the start of each partition this member had
    /// stored further than the group's committed offset, and returns those offsets (to store once assigned).
    /// On the poll thread, inside the rebalance callback. Any failure leaves the list as it was: the
    /// partitions then start from the committed offsets, as they would without this.
    func resumeAfterLoss(_ rk: OpaquePointer, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> [KafkaTopicPartition: Int64] {
        let remembered = storedOffsets.take(RDKafkaTopicPartitionList.partitions(list))
        guard !remembered.isEmpty else { return [:] }
        let committed = RDKafkaTopicPartitionList.withList(Array(remembered.keys)) { query -> [KafkaTopicPartition: Int64]? in
            let err = rd_kafka_committed(rk, query, Int32(clamping: Self.committedQueryTimeout.clampedMilliseconds))
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR else { return nil }
            var offsets: [KafkaTopicPartition: Int64] = [:]
            for entry in RDKafkaTopicPartitionList.entries(query) where entry.error == RD_KAFKA_RESP_ERR_NO_ERROR {
                offsets[entry.partition] = entry.offset  // RD_KAFKA_OFFSET_INVALID (-1001) when none was committed
            }
            return offsets
        }
        guard let committed else { return [:] }
        let resumed = remembered.filter { partition, stored in
            guard let known = committed[partition] else { return false }
            return known < 0 || known < stored
        }
        guard !resumed.isEmpty, let elements = list.pointee.elems else { return [:] }
        for index in 0..<Int(list.pointee.cnt) {
            let element = elements[index]
            let partition = KafkaTopicPartition(topic: element.topic.map { String(cString: $0) } ?? "", partition: element.partition)
            if let offset = resumed[partition] { elements[index].offset = offset }
        }
        logger.info(
            "resuming partitions after what this member finished before losing them",
            metadata: [
                "partitions": .array(resumed.keys.sorted { "\($0)" < "\($1)" }.map { "\($0)@\(resumed[$0] ?? 0) (committed \(committed[$0] ?? -1))" })
            ])
        return resumed
    }

    /// Stores the resumed offsets once the partitions are assigned, so the next automatic commit moves the
    /// group's committed offsets up to them.
    func storeResumed(_ rk: OpaquePointer, _ offsets: [KafkaTopicPartition: Int64]) {
        guard !offsets.isEmpty else { return }
        RDKafkaTopicPartitionList.withList(offsets.map { ($0.key, Optional($0.value)) }) { list in
            _ = rd_kafka_offsets_store(rk, list)
        }
        storedOffsets.noteStored(offsets)
    }
}
