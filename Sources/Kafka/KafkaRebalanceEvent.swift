/// A change in the partitions this group member owns.
///
/// The consumer calls its rebalance handler with each event and waits for it: for revoked partitions up to
/// ``KafkaConsumerConfiguration/revokeTimeout``, so that the caller can finish or cancel the work it holds
/// for them and store their offsets before another member takes them over.
package enum KafkaRebalanceEvent: Sendable, Hashable {
    /// These partitions are now this member's.
    case assigned([KafkaTopicPartition])
    /// These partitions will be given up when the handler returns or the deadline passes, whichever is first.
    case revoked([KafkaTopicPartition], deadline: ContinuousClock.Instant)
    /// These partitions were lost without an orderly handover (the member was considered dead): another
    /// member may already be reading them, and offsets stored now will not be committed.
    case lost([KafkaTopicPartition])
}
