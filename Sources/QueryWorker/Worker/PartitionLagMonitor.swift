package import Kafka
import Logging
import Synchronization

/// The consumer's lag per partition against the group's committed offset, refreshed on its own interval and
/// kept for readers that must never wait for the cluster: the summary line, the `consumer_lag` and
/// `committed_offset` metrics and the status page all read ``latest``, so they show the same figures.
///
/// A refresh is two requests to the cluster, each bounded by ``timeout``; while the cluster does not answer,
/// the last good figures stay (with ``lastError`` set and ``refreshedAt`` getting older).
package final class PartitionLagMonitor: Sendable {
    /// The last good figures, what went wrong since (if anything), and when they were taken.
    package struct Snapshot: Sendable {
        package var lag: [KafkaTopicPartition: PartitionLag] = [:]
        package var refreshedAt: ContinuousClock.Instant?
        package var lastError: KafkaError?
    }

    package let interval: Duration
    /// Bound on each of a refresh's requests: at most the interval, at most 5 s.
    package var timeout: Duration { min(interval, .seconds(5)) }
    private let state = Mutex(Snapshot())

    package init(interval: Duration) {
        self.interval = interval
    }

    /// The last good lag of every assigned partition (partitions no longer assigned are dropped at the next
    /// refresh).
    package var latest: [KafkaTopicPartition: PartitionLag] { state.withLock { $0.lag } }

    package var snapshot: Snapshot { state.withLock { $0 } }

    /// Refreshes every ``interval`` until cancelled, handing each refresh's figures to `refreshed` (the
    /// `consumer_lag` and `committed_offset` gauges).
    func run(_ consumer: KafkaConsumer, refreshed: @Sendable ([KafkaTopicPartition: PartitionLag]) -> Void = { _ in }) async {
        while !Task.isCancelled {
            await leaveOnCancel { await self.refresh(consumer) }
            refreshed(latest)
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// One refresh for the consumer's current assignment.
    func refresh(_ consumer: KafkaConsumer) async {
        let partitions = Array(consumer.assignment)
        do {
            let lag = try await consumer.committedLag(for: partitions, timeout: timeout)
            let now = ContinuousClock.now
            state.withLock { $0 = Snapshot(lag: lag, refreshedAt: now, lastError: nil) }
        } catch {
            state.withLock { snapshot in
                snapshot.lastError = error
                // Keep the last figures of partitions still held; forget the others.
                snapshot.lag = snapshot.lag.filter { partitions.contains($0.key) }
            }
        }
    }
}
