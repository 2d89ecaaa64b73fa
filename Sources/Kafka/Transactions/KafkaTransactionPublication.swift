/// What became of one outcome given to ``KafkaTransactions/publish(_:partition:fallback:appended:)``.
package enum KafkaTransactionPublication: Sendable {
    /// Published and its offsets committed, in one committed transaction.
    case committed
    /// The cluster refused the outcome as too large; the fallback's messages were committed instead.
    case committedFallback(KafkaError)
    /// Not published: its partition is no longer this member's (revoked or lost, or the transaction that
    /// carried it failed during a revocation), or the publisher stopped. The partition's next owner answers.
    case dropped(KafkaError)
}

/// What a transaction ended with, for metrics and logs.
package enum KafkaTransactionOutcome: Sendable {
    /// Committed: how many outcomes it published.
    case committed(outcomes: Int)
    /// Aborted (its outcomes are published again in the next one, but for those of revoked partitions).
    case aborted(KafkaError)
}

/// How a transactional publisher batches.
package struct KafkaTransactionConfiguration: Sendable, Hashable {
    /// How long outcomes gather before a transaction commits them: a transaction costs a few round trips
    /// whatever it carries, so a longer interval means fewer transactions and longer waits for answers.
    package var interval: Duration
    /// The bound on each blocking transactional call (begin, send offsets, commit, abort).
    package var callTimeout: Duration

    package init(interval: Duration = .milliseconds(50), callTimeout: Duration = .seconds(10)) {
        self.interval = interval
        self.callTimeout = callTimeout
    }
}
