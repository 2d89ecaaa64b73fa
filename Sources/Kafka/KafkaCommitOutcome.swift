/// What the group coordinator said to a commit of stored offsets.
package enum KafkaCommitOutcome: Sendable {
    /// These offsets are committed (the next offset to read, per partition).
    case committed([KafkaTopicPartition: Int64])
    /// Nothing was stored since the last commit.
    case nothingToCommit
    /// The coordinator refused the commit because the group is rebalancing: offsets stored now are not
    /// committed, so answers given for them would be repeated by the partitions' next owner.
    case refusedDuringRebalance(KafkaError)
    /// The commit failed for another reason (coordinator unreachable, timed out, member no longer in the group).
    case failed(KafkaError)

    /// Whether the offsets are committed (or there was nothing to commit).
    package var succeeded: Bool {
        switch self {
        case .committed, .nothingToCommit: true
        case .refusedDuringRebalance, .failed: false
        }
    }
}
