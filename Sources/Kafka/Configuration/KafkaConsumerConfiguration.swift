import FeatureQuerySupport

/// How a consumer joins its group and reads.
package struct KafkaConsumerConfiguration: Sendable, Hashable {
    /// How partitions are divided among the members of a group.
    package struct AssignmentStrategy: Hashable, Sendable {
        let value: String
        /// Eager: every rebalance revokes all partitions first. The safe default on librdkafka 2.0.2.
        package static let range = AssignmentStrategy(value: "range")
        /// Eager, round robin.
        package static let roundRobin = AssignmentStrategy(value: "roundrobin")
        /// Incremental: only moved partitions are revoked. librdkafka fixed bugs in it after 2.0.2.
        package static let cooperativeSticky = AssignmentStrategy(value: "cooperative-sticky")
    }

    /// Where a group with no committed offset starts.
    package enum AutoOffsetReset: String, Sendable, Hashable {
        case earliest, latest
    }

    package var client: KafkaClientConfiguration
    package var groupID: String
    package var topics: [String]
    package var assignmentStrategy: AssignmentStrategy
    package var autoOffsetReset: AutoOffsetReset
    package var sessionTimeout: Duration
    package var heartbeatInterval: Duration
    /// librdkafka leaves the group when the poll loop stalls this long; the work itself is not limited by it.
    package var maxPollInterval: Duration
    /// How often stored offsets are committed. Offsets are stored only when the caller marks a message done.
    package var autoCommitInterval: Duration
    /// How long the caller's rebalance handler may take for revoked partitions before they are given up.
    package var revokeTimeout: Duration
    /// Messages read ahead of the caller. Above this the consumer stops fetching until the caller catches up.
    package var bufferCapacity: Int
    /// How long ``KafkaConsumer/run()`` waits, once told to stop, for librdkafka to close the consumer (revoke,
    /// commit the stored offsets, leave the group). librdkafka's close has no timeout of its own: with the
    /// coordinator unreachable it waits about `sessionTimeout`, and with a cluster that stopped answering it was
    /// seen waiting forever. After this, `run()` returns and the close goes on alone on its thread; offsets it
    /// did not commit are read again by the partitions' next owner (at-least-once).
    package var closeTimeout: Duration
    /// The most messages librdkafka fetches ahead of the caller (`queued.min.messages`): it fetches again only
    /// while fewer are waiting. A group consumer checks it against its one queue, all assigned partitions
    /// together, and may overshoot it by one fetch response. `nil`: librdkafka's default, 100,000, which on
    /// a backlog of small messages fetches the whole backlog ahead (about 80 MiB for 100,000 messages of 400 B).
    package var prefetchMessages: Int?
    /// The most bytes librdkafka fetches ahead of the caller (`queued.max.messages.kbytes`, rounded up to whole
    /// KiB), checked like ``prefetchMessages``. Unless `fetch.max.bytes` is set, librdkafka also caps one fetch
    /// response at it (but never below `message.max.bytes`), which bounds the overshoot. `nil`: librdkafka's
    /// default, 64 MiB.
    package var prefetchBytes: Int?
    /// Whether librdkafka commits stored offsets by itself (every ``autoCommitInterval`` and on close). Off when
    /// the offsets go in transactions instead (``KafkaTransactions``): a commit outside them could move the
    /// group past answers that a transaction then aborts.
    package var autoCommit = true
    /// Whether assignments read the answers a partition's previous owner committed past its offset (named in
    /// the commit's metadata by ``KafkaTransactions``) and leave those requests out: on with exactly-once
    /// outcomes (see ``InheritedAnswers``).
    package var inheritsAnswers = false

    package init(
        client: KafkaClientConfiguration,
        groupID: String,
        topics: [String],
        assignmentStrategy: AssignmentStrategy = .range,
        autoOffsetReset: AutoOffsetReset = .earliest,
        sessionTimeout: Duration = .seconds(10),
        heartbeatInterval: Duration = .seconds(1),
        maxPollInterval: Duration = .seconds(300),
        autoCommitInterval: Duration = .seconds(1),
        revokeTimeout: Duration = .seconds(10),
        bufferCapacity: Int = 10_000,
        closeTimeout: Duration = .seconds(10),
        prefetchMessages: Int? = nil,
        prefetchBytes: Int? = nil
    ) {
        self.client = client
        self.groupID = groupID
        self.topics = topics
        self.assignmentStrategy = assignmentStrategy
        self.autoOffsetReset = autoOffsetReset
        self.sessionTimeout = sessionTimeout
        self.heartbeatInterval = heartbeatInterval
        self.maxPollInterval = maxPollInterval
        self.autoCommitInterval = autoCommitInterval
        self.revokeTimeout = revokeTimeout
        self.bufferCapacity = bufferCapacity
        self.closeTimeout = closeTimeout
        self.prefetchMessages = prefetchMessages
        self.prefetchBytes = prefetchBytes
    }

    var properties: [(String, String)] {
        orderedProperties(
            client.properties + [
                ("group.id", groupID),
                ("partition.assignment.strategy", assignmentStrategy.value),
                ("auto.offset.reset", autoOffsetReset.rawValue),
                ("session.timeout.ms", String(sessionTimeout.clampedMilliseconds)),
                ("heartbeat.interval.ms", String(heartbeatInterval.clampedMilliseconds)),
                ("max.poll.interval.ms", String(maxPollInterval.clampedMilliseconds)),
                ("enable.auto.commit", autoCommit ? "true" : "false"),
                ("auto.commit.interval.ms", String(autoCommitInterval.clampedMilliseconds)),
                // The at-least-once rule: an offset is stored only when the caller says the message is done.
                ("enable.auto.offset.store", "false"),
                ("enable.partition.eof", "false"),
            ] + prefetchProperties,
            additional: client.additionalProperties
        )
    }

    /// The read-ahead bounds that are set; librdkafka's defaults for the others.
    private var prefetchProperties: [(String, String)] {
        var result: [(String, String)] = []
        if let prefetchMessages { result.append(("queued.min.messages", String(prefetchMessages))) }
        if let prefetchBytes { result.append(("queued.max.messages.kbytes", String(max(1, (prefetchBytes + 1023) / 1024)))) }
        return result
    }
}
