internal import Kafka

/// A ``PartitionOffsetTracker`` for each partition assigned to this worker.
///
/// Messages of a partition that is not assigned are ignored: after a revocation, the consumer's read-ahead
/// may still hand over messages of partitions already given up, and tracking them would store offsets for a
/// partition another member now owns. So ``assign(_:)`` must be called from the rebalance handler before
/// messages of the new partitions are received.
struct AssignmentOffsetTracker: Sendable {
    /// Cumulative counts for one partition, kept across revocation and reassignment (for metrics and lag).
    struct Counters: Hashable, Sendable {
        var received = 0
        var done = 0
    }

    private(set) var partitions: [KafkaTopicPartition: PartitionOffsetTracker] = [:]
    /// Counts since the worker started, per partition ever assigned.
    private(set) var lifetimeCounters: [KafkaTopicPartition: Counters] = [:]

    init() {}

    /// Partitions given to this worker. A partition already assigned keeps its tracker: resetting it would
    /// forget undone offsets and let the commit pass them.
    mutating func assign(_ newPartitions: some Sequence<KafkaTopicPartition>) {
        for partition in newPartitions where partitions[partition] == nil {
            partitions[partition] = PartitionOffsetTracker()
        }
    }

    /// The coordinator confirmed these commits (the next offset to read, per partition); partitions no longer
    /// assigned are ignored.
    mutating func committed(_ offsets: [KafkaTopicPartition: Int64]) {
        for (partition, offset) in offsets {
            guard let index = partitions.index(forKey: partition) else { continue }
            partitions.values[index].committed(offset)
        }
    }

    /// Partitions taken away: their state is dropped (the next owner starts from the committed offset, and
    /// later `done` calls for them are ignored). Returns the trackers removed, for a last look (in-flight
    /// counts for the log, the final committable offset).
    @discardableResult
    mutating func revoke(_ revoked: some Sequence<KafkaTopicPartition>) -> [KafkaTopicPartition: PartitionOffsetTracker] {
        var removed: [KafkaTopicPartition: PartitionOffsetTracker] = [:]
        for partition in revoked {
            if let tracker = partitions.removeValue(forKey: partition) { removed[partition] = tracker }
        }
        return removed
    }

    /// A message was read. `false` when it is ignored: its partition is not assigned, or its offset is not
    /// above the last one received.
    @discardableResult
    mutating func received(_ position: MessagePosition) -> Bool {
        // Through the index, as in done(_:): `partitions[key]?.received(...)` changes the element in a
        // `modify` coroutine whose frame is `malloc`'d, once per message.
        guard let index = partitions.index(forKey: position.partition), partitions.values[index].received(position.offset) else {
            return false
        }
        lifetimeCounters[position.partition, default: Counters()].received += 1
        return true
    }

    /// A message is done. Returns the partition's new committable offset (to store) when it moved forward.
    mutating func done(_ position: MessagePosition) -> Int64? {
        // One lookup: the tracker is changed in place through its index (every answer comes through here).
        guard let index = partitions.index(forKey: position.partition) else { return nil }
        let before = partitions.values[index].doneCount
        let committable = partitions.values[index].done(position.offset)
        if partitions.values[index].doneCount != before {
            lifetimeCounters[position.partition, default: Counters()].done += 1
        }
        return committable
    }

    subscript(partition: KafkaTopicPartition) -> PartitionOffsetTracker? { partitions[partition] }

    func isAssigned(_ partition: KafkaTopicPartition) -> Bool { partitions[partition] != nil }

    /// Messages received and not done, over all assigned partitions: what drains and revocations wait for
    /// (``InFlightGate`` counts ``active``).
    var inFlight: Int { partitions.values.reduce(0) { $0 + $1.inFlight } }

    /// Received and not yet handed to the producer, across partitions (see ``PartitionOffsetTracker/active``).
    var active: Int { partitions.values.reduce(0) { $0 + $1.active } }

    /// The message's outcome is in the producer's queue (ignored for partitions no longer assigned).
    mutating func handedOff(_ position: MessagePosition) {
        guard let index = partitions.index(forKey: position.partition) else { return }
        partitions.values[index].handedOff(position.offset)
    }
}
