import FeatureQuerySupport
import Kafka
import Logging
import Synchronization

extension WorkerCore {
    /// A commit of stored offsets was answered (on the consumer's commit or poll thread, or in a revocation: kept
    /// short).
    func committed(_ outcome: KafkaCommitOutcome) {
        metrics.committed(outcome)
        logger.trace("commit answered", metadata: ["outcome": "\(outcome)"])
        switch outcome {
        case .committed(let offsets):
            if !offsets.isEmpty { apply(state.withLock { $0.committed(offsets) }) }
        case .nothingToCommit:
            break
        case .refusedDuringRebalance(let error):
            // Answers wait from now on; said once per refusal (one line per rebalance), not per refused commit.
            let (first, answered) = state.withLock { state in
                let first = state.commitRefused()
                return (first, first ? state.answeredPastCommit() : 0)
            }
            if first {
                logger.info("the group coordinator refuses commits (rebalancing); answers wait", metadata: [
                    "error": .string(error.message), "answeredUncommitted": .int(answered),
                ])
            }
        case .failed(let error):
            logger.debug("offset commit failed", metadata: ["error": .string(error.message)])
        }
    }

    /// Commits go through again (a commit succeeded, or a new assignment came): waiting answers go out.
    func acceptCommits() {
        apply(state.withLock { $0.commitsAccepted() })
    }

    /// Before an answer is published: while the coordinator refuses commits, waits until it accepts them
    /// again, at most ``commitHoldLimit`` from now. False when the answer must not be published: its
    /// partition was revoked meanwhile without a commit, and the next owner answers the request.
    func mayPublish(_ position: MessagePosition) async -> Bool {
        guard state.withLock({ $0.commitsRefused }) else { return true }
        await waitUntil(.commitsAccepted, deadline: .now + commitHoldLimit)
        return state.withLock { $0.isTracked(position) }
    }

    /// The longest an answer waits for commits to be accepted again: the consumer's session timeout, after
    /// which the coordinator has re-formed the group or dropped this member.
    var commitHoldLimit: Duration { settings.consumerConfiguration(closeTimeout: .zero).sessionTimeout }
}

extension WorkerCore {
    /// Looks up the outcome topics' partitions as the worker starts, while it joins its group: otherwise the
    /// first answers wait most of a second in the producer for them, and a rebalance that starts meanwhile
    /// (a member restarting) catches them published but not committable.
    func loadOutcomeTopicsMetadata() async {
        let topics = [settings.topics.results, settings.topics.errors]
        let loaded = await publisher.producer.loadMetadata(for: topics, timeout: .seconds(5))
        logger.debug("outcome topics' metadata", metadata: ["loaded": .array(loaded.map { .string($0) }), "topics": .array(topics.map { .string($0) })])
    }
}
