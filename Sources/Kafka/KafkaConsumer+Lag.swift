internal import CRDKafka
import Synchronization

/// How far a group is behind in one partition: what KEDA's Kafka scaler and an on-call person call the lag.
package struct PartitionLag: Sendable, Hashable {
    /// The group's committed offset (the next offset it will read after a restart); `nil` when the group has
    /// committed none in this partition yet.
    package var committed: Int64?
    /// The partition's end: the offset the next message written there gets.
    package var end: Int64
    /// Messages not committed: `end − committed`, or `end −` the partition's start when nothing is committed
    /// (the group resets to the earliest offset).
    package var lag: Int64
    /// This consumer's position (past the last message librdkafka handed it, read ahead or not); `nil` when it
    /// has none yet.
    package var position: Int64?
    /// Whether ``end`` is librdkafka's cached watermark because the real lookup did not answer in time.
    package var endIsCached: Bool

    package init(committed: Int64?, end: Int64, lag: Int64, position: Int64? = nil, endIsCached: Bool = false) {
        self.committed = committed
        self.end = end
        self.lag = lag
        self.position = position
        self.endIsCached = endIsCached
    }

    /// Messages this consumer has read past the committed offset: read ahead in the buffer, in flight, or done
    /// and not committed yet. Not the lag: the worker reads far ahead of what it has answered.
    package var readAhead: Int64? {
        guard let position else { return nil }
        return max(0, position - (committed ?? (end - lag)))
    }
}

extension KafkaConsumer {
    /// The lag of each partition against the group's **committed** offset and the partition's real end.
    ///
    /// Not the position: the poll thread reads up to the read-ahead buffer's capacity whether or not the
    /// caller took the messages, so a position-based lag is 0 while hundreds of messages wait. Not the cached
    /// watermark either: it is refreshed only by fetches, which stop while partitions are paused. Two
    /// requests (committed offsets to the coordinator, end offsets to the leaders), each bounded by
    /// `timeout`; the end falls back to the cached watermark when its lookup fails. Throws when the committed
    /// offsets cannot be read (the cluster is unreachable): the caller keeps its last figures.
    package func committedLag(
        for partitions: [KafkaTopicPartition],
        timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: PartitionLag] {
        guard !partitions.isEmpty else { return [:] }
        let committed = try await committedOffsets(for: partitions, timeout: timeout)
        var ends: [KafkaTopicPartition: Int64] = [:]
        var cached = false
        do {
            ends = try await handle.listOffsets(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_END)) }, timeout: timeout)
        } catch {
            cached = true
            for partition in partitions { ends[partition] = handle.cachedWatermarks(partition)?.high }
        }
        let uncommitted = partitions.filter { committed[$0] == nil }
        let starts = try await partitionStarts(uncommitted, timeout: timeout)
        handle.context.heardFromCluster()
        let positions = handle.positions(partitions)
        var result: [KafkaTopicPartition: PartitionLag] = [:]
        for partition in partitions {
            guard let end = ends[partition], end >= 0 else { continue }
            let from = committed[partition] ?? starts[partition] ?? 0
            result[partition] = PartitionLag(
                committed: committed[partition], end: end, lag: max(0, end - from), position: positions[partition], endIsCached: cached)
        }
        return result
    }

    /// Where each partition begins (its low watermark), for partitions the group never committed in.
    private func partitionStarts(
        _ partitions: [KafkaTopicPartition], timeout: Duration
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        guard !partitions.isEmpty else { return [:] }
        do {
            return try await handle.listOffsets(partitions.map { ($0, Int64(RD_KAFKA_OFFSET_BEGINNING)) }, timeout: timeout)
                .filter { $0.value >= 0 }
        } catch {
            var result: [KafkaTopicPartition: Int64] = [:]
            for partition in partitions { result[partition] = handle.cachedWatermarks(partition)?.low }
            return result
        }
    }

    /// The group's committed offsets for these partitions, as the group coordinator holds them (a network
    /// request, bounded by `timeout`). Partitions with no committed offset are absent from the result.
    package func committedOffsets(
        for partitions: [KafkaTopicPartition],
        timeout: Duration = .seconds(10)
    ) async throws(KafkaError) -> [KafkaTopicPartition: Int64] {
        try await handle.committedOffsets(for: partitions, timeout: timeout)
    }

    /// Messages read from librdkafka and waiting in the read-ahead buffer for the caller to take them.
    package var bufferedCount: Int { core.state.withLock { $0.bufferedCount } }
}
