internal import CRDKafka
import Logging
import Synchronization
import FeatureQuerySupport

/// Requests a partition's previous owner answered past the offset it committed, named in that commit's metadata
/// (``AnsweredOffsets``: exactly-once outcomes): this member does not read them again as work.
///
/// At each assignment the consumer asks the coordinator for the committed offsets with their metadata, starts
/// each partition at the offset it got (so offset and metadata are one commit's), keeps the answered offsets
/// for the transactions (``KafkaConsumer/inheritedOffsets(_:)``: they stay named in this member's commits until
/// its offsets pass them), and drops those messages as they are read: to the caller they are like offsets
/// never written, which its offset tracking commits past.
final class InheritedAnswers: Sendable {
    private struct State {
        /// Per partition, the offsets still to drop.
        var skipping: [KafkaTopicPartition: Set<Int64>] = [:]
        /// Per partition, what the last assignment found, until the caller takes it.
        var found: [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited] = [:]
    }

    private let state = Mutex(State())
    /// Whether any offset waits to be dropped: the poll loop looks at the lock only then.
    private let active = Atomic<Bool>(false)

    /// An assignment found these commits.
    func found(_ commits: [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited]) {
        state.withLock { state in
            for (partition, commit) in commits {
                state.found[partition] = commit
                state.skipping[partition] = commit.answered.isEmpty ? nil : commit.answered
            }
            active.store(!state.skipping.isEmpty, ordering: .relaxed)
        }
    }

    /// The partitions left this member: nothing of theirs is dropped any more.
    func forget(_ partitions: [KafkaTopicPartition]) {
        state.withLock { state in
            for partition in partitions {
                state.skipping[partition] = nil
                state.found[partition] = nil
            }
            active.store(!state.skipping.isEmpty, ordering: .relaxed)
        }
    }

    /// What the last assignment of `partitions` found, taken out.
    func take(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited] {
        state.withLock { state in
            var taken: [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited] = [:]
            for partition in partitions { taken[partition] = state.found.removeValue(forKey: partition) }
            return taken
        }
    }

    /// Whether the message at `offset` of `partition` was answered by the previous owner: then it is not
    /// delivered (and not looked for again).
    func drops(_ partition: Int32, offset: Int64, topic: String) -> Bool {
        guard active.load(ordering: .relaxed) else { return false }
        return state.withLock { state in
            let key = KafkaTopicPartition(topic: topic, partition: partition)
            guard state.skipping[key]?.remove(offset) != nil else { return false }
            if state.skipping[key]?.isEmpty == true { state.skipping[key] = nil }
            active.store(!state.skipping.isEmpty, ordering: .relaxed)
            return true
        }
    }
}

extension KafkaConsumerCore {
    /// For an assignment about to be applied: reads the committed offsets of the partitions in `list` with
    /// their metadata, sets each partition's start in `list` to its committed offset, and keeps the answered
    /// offsets the metadata names. On the poll thread, inside the rebalance callback. A failed query leaves the
    /// list as it was (the partitions start from the committed offsets librdkafka fetches, and answers past them
    /// are given again, as before this).
    func inheritAnswers(_ rk: OpaquePointer, _ list: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        let partitions = RDKafkaTopicPartitionList.partitions(list)
        guard !partitions.isEmpty else { return }
        let commits = RDKafkaTopicPartitionList.withList(partitions) { query -> [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited]? in
            let err = rd_kafka_committed(rk, query, Int32(clamping: Self.committedQueryTimeout.clampedMilliseconds))
            guard err == RD_KAFKA_RESP_ERR_NO_ERROR else {
                logger.warning(
                    "reading the committed offsets of assigned partitions failed; answers past them may be given again",
                    metadata: ["error": "\(KafkaError.rdKafka(err, context: "committed"))"])
                return nil
            }
            let texts = RDKafkaTopicPartitionList.metadataTexts(query)
            var commits: [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited] = [:]
            for entry in RDKafkaTopicPartitionList.entries(query) where entry.error == RD_KAFKA_RESP_ERR_NO_ERROR && entry.offset >= 0 {
                let answered = AnsweredOffsets.offsets(in: texts[entry.partition] ?? "", committed: entry.offset)
                commits[entry.partition] = .init(committed: entry.offset, answered: answered)
            }
            return commits
        }
        guard let commits, let elements = list.pointee.elems else { return }
        for index in 0..<Int(list.pointee.cnt) {
            let element = elements[index]
            let partition = KafkaTopicPartition(topic: element.topic.map { String(cString: $0) } ?? "", partition: element.partition)
            if let commit = commits[partition] { elements[index].offset = commit.committed }
        }
        inheritedAnswers.found(commits)
        let named = commits.filter { !$0.value.answered.isEmpty }
        if !named.isEmpty {
            logger.info(
                "assigned partitions whose previous owner answered requests past its commit; they are not answered again",
                metadata: [
                    "partitions": .array(named.keys.sorted { "\($0)" < "\($1)" }.map {
                        "\($0)@\(named[$0]?.committed ?? 0) (+\(named[$0]?.answered.count ?? 0) answered)"
                    })
                ])
        }
    }
}

extension KafkaConsumer {
    /// What the previous owners of `partitions` committed, read when they were assigned to this member (with
    /// ``KafkaConsumerConfiguration/inheritsAnswers``): for ``KafkaTransactions/assign(_:inherited:)``.
    package func inheritedOffsets(_ partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: KafkaTransactions.StateMachine.Inherited] {
        core.inheritedAnswers.take(partitions)
    }
}
