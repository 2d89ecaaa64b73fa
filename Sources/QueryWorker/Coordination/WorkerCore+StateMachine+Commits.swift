internal import Kafka

/// Publishing while the group coordinator refuses commits.
///
/// Why: a coordinator refuses commits while its group re-forms (librdkafka's mock for a whole join round,
/// seconds long; a real broker once the member's generation is over), and the members hear of the rebalance
/// only at their next heartbeat. An answer published in between has an offset that can't be committed: the
/// partition's next owner reads the request again and answers it a second time. So once a commit is refused,
/// answers wait (``Condition/commitsAccepted``) until a commit goes through, the member is given its new
/// assignment, or the revocation decides: when the revoked partitions' commit is refused too, their waiting
/// answers are dropped (``isTracked(_:)`` turns false) and the next owner answers those requests once.
extension WorkerCore.StateMachine {
    /// A commit was refused because the group is rebalancing. True when commits were accepted until now: the
    /// worker says so once per refusal, not once per refused commit.
    mutating func commitRefused() -> Bool {
        defer { commitsRefused = true }
        return !commitsRefused
    }

    /// Answers the next owner of these partitions (all held ones when `nil`) would give again if they went now
    /// without a commit.
    func answeredPastCommit(_ partitions: [KafkaTopicPartition]? = nil) -> Int {
        guard let partitions else { return offsets.partitions.values.reduce(0) { $0 + $1.answeredPastCommit } }
        return partitions.reduce(0) { $0 + (offsets[$1]?.answeredPastCommit ?? 0) }
    }

    /// A commit went through, or the member was given its new assignment: waiting answers go out.
    mutating func commitsAccepted() -> Action {
        var action = Action()
        guard commitsRefused else { return action }
        commitsRefused = false
        settle(&action)
        return action
    }

    /// Whether the message is still this worker's to answer: received, not done, its partition still held.
    func isTracked(_ position: MessagePosition) -> Bool {
        messages[position] != nil
    }
}
