internal import CRDKafka
import Logging
import Synchronization

extension KafkaConsumer {
    /// Commits the stored offsets soon, without waiting: at once when no commit of ours is in flight, else
    /// right after the one in flight completes (see ``KafkaCommitScheduler``). Call it after storing offsets.
    /// The outcome reaches the consumer's commit handler.
    package func commitStoredOffsetsSoon() {
        committer.request()
    }

    /// Commits the stored offsets now and waits for the coordinator's answer, at most `timeout` (a commit still
    /// on its way then completes alone). Used before partitions are given up, when it matters whether the
    /// answers given for them can still be committed.
    package func commitStoredOffsets(timeout: Duration) async -> KafkaCommitOutcome {
        let handle = self.handle
        return await Self.waitForCommit(timeout: timeout) { Self.commitSynchronously(handle.pointer) }
    }

    /// Runs a blocking commit on a thread of its own and waits for it at most `timeout`.
    private static func waitForCommit(
        timeout: Duration, _ commit: @escaping @Sendable () -> KafkaCommitOutcome
    ) async -> KafkaCommitOutcome {
        await withTaskGroup(of: KafkaCommitOutcome?.self) { group in
            group.addTask { await KafkaPollThread.call(name: "kafka-commit", commit) }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failed(KafkaError(
                code: .timeout, message: "the group coordinator did not answer a commit within \(timeout)", isRetryable: true))
        }
    }

    /// Commits these offsets (the next offset to read, per partition) now and waits for the coordinator's
    /// answer, at most `timeout`. The caller must know no higher offset of these partitions was stored or
    /// committed: a commit can move a group's offset back.
    package func commit(_ offsets: [KafkaTopicPartition: Int64], timeout: Duration) async -> KafkaCommitOutcome {
        guard !offsets.isEmpty else { return .nothingToCommit }
        let handle = self.handle
        let list = offsets.map { ($0.key, Optional($0.value)) }
        return await Self.waitForCommit(timeout: timeout) {
            RDKafkaTopicPartitionList.withList(list) { Self.commitSynchronously(handle.pointer, $0) }
        }
    }

    /// `rd_kafka_commit_queue` without a queue: blocks until the coordinator answers and calls the callback,
    /// with each partition's error, on this thread. `offsets` nil: the stored offsets of the assignment.
    static func commitSynchronously(
        _ rk: OpaquePointer, _ offsets: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>? = nil
    ) -> KafkaCommitOutcome {
        let box = CommitOutcomeBox()
        let opaque = Unmanaged.passUnretained(box).toOpaque()
        let err = rd_kafka_commit_queue(rk, offsets, nil, { _, err, list, opaque in
            guard let opaque else { return }
            let box = Unmanaged<CommitOutcomeBox>.fromOpaque(opaque).takeUnretainedValue()
            box.outcome.withLock { $0 = KafkaCommitOutcome(err, list) }
        }, opaque)
        return withExtendedLifetime(box) {
            box.outcome.withLock { $0 } ?? KafkaCommitOutcome(err, nil)
        }
    }
}

private final class CommitOutcomeBox: Sendable {
    let outcome = Mutex<KafkaCommitOutcome?>(nil)
}

extension KafkaCommitOutcome {
    /// The outcome of an OffsetCommit: the request's error, or the first partition's error.
    init(_ err: rd_kafka_resp_err_t, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?) {
        let entries = list.map { RDKafkaTopicPartitionList.entries($0) } ?? []
        let failure = err != RD_KAFKA_RESP_ERR_NO_ERROR ? err : entries.first { $0.error != RD_KAFKA_RESP_ERR_NO_ERROR }?.error
        switch failure {
        case nil:
            var committed: [KafkaTopicPartition: Int64] = [:]
            for entry in entries where entry.offset >= 0 { committed[entry.partition] = entry.offset }
            self = .committed(committed)
        case RD_KAFKA_RESP_ERR__NO_OFFSET?:
            self = .nothingToCommit
        case RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS?:
            self = .refusedDuringRebalance(KafkaError.rdKafka(RD_KAFKA_RESP_ERR_REBALANCE_IN_PROGRESS, context: "commit", defaultCode: .offset))
        case let other?:
            self = .failed(KafkaError.rdKafka(other, context: "commit", defaultCode: .offset))
        }
    }
}
