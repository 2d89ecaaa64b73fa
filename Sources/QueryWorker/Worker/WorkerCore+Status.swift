import FeatureQuerySupport
import Kafka
import Logging
import Synchronization
import RequestContract

extension WorkerCore {
    /// The worker's state now, for the operations endpoint: the machine's figures read under one lock, the
    /// recent activity, and what the Kafka clients report.
    func status(nowMs: Int64 = WallClock.nowMilliseconds()) -> WorkerStatus {
        let machine = state.withLock { state in
            MachineFigures(
                partitions: state.offsets.partitions.map { ($0.key, $0.value.inFlight, $0.value.committableOffset) },
                running: state.messages.values.compactMap { if case .running(let pending, _) = $0 { pending } else { nil } },
                runs: state.registry.runCount,
                paused: { if case .held = state.intake { true } else { false } }(),
                answered: state.answeredCount)
        }
        let offsets = kafkaOffsets(for: machine.partitions.map(\.0))
        let partitions = machine.partitions.map { partition, inFlight, committable in
            let known = offsets[partition]
            return WorkerStatus.Partition(
                topic: partition.topic, partition: partition.partition, inFlight: inFlight, committable: committable,
                committed: known?.committed, end: known?.end, lag: known?.lag)
        }.sorted { ($0.topic, $0.partition) < ($1.topic, $1.partition) }
        let inFlight = machine.running.map { pending in
            WorkerStatus.InFlightRequest(
                requestId: pending.request.requestId, taskId: pending.request.taskId, partition: pending.source.partition,
                offset: pending.source.offset, ageMs: max(0, nowMs - pending.request.receivedAt))
        }.sorted { $0.ageMs > $1.ageMs }
        let recent = outcomes.activity.snapshot(nowMs: nowMs)
        return WorkerStatus(
            workerID: settings.workerID, groupID: settings.groupID, phase: phase.withLock { $0 }, capturedAtMs: nowMs,
            partitions: partitions, inFlight: inFlight, runs: machine.runs, intakePaused: machine.paused,
            answered: machine.answered, outcomes: recent.outcomes, recentErrors: recent.errors, activity: recent.activity,
            kafka: kafkaHealth(), settings: Self.settingsInForce(settings.logMetadata))
    }

    /// The message loop's phase changed (``QueryWorkerService``): what `/health/live` reads.
    func enter(_ phase: WorkerStatus.Phase) {
        self.phase.withLock { $0 = phase }
    }

    // MARK: Kafka's side

    /// Committed offset, end and lag of each partition: the lag monitor's last figures (lag against the
    /// committed offset, refreshed on its own interval), the same the summary line and the metrics show.
    func kafkaOffsets(for partitions: [KafkaTopicPartition]) -> [KafkaTopicPartition: (committed: Int64?, end: Int64?, lag: Int64?)] {
        let latest = lagMonitor.latest
        var result: [KafkaTopicPartition: (committed: Int64?, end: Int64?, lag: Int64?)] = [:]
        for partition in partitions {
            if let known = latest[partition] { result[partition] = (known.committed, known.end, known.lag) }
        }
        return result
    }

    /// Whether the consumer is in its group and the clients hear from the cluster (``kafkaState()``'s parts).
    func kafkaHealth() -> WorkerStatus.KafkaHealth {
        WorkerStatus.KafkaHealth(
            joinedGroup: consumer.hasJoinedGroup, connected: consumer.connectivity.isConnected,
            producerCanDeliver: publisher.producer.connectivity.isConnected)
    }

    // MARK: Settings

    /// The start-up line's settings (secrets already redacted there) as flat key/value pairs, sorted: nested
    /// values get dotted keys, lists are comma-joined.
    static func settingsInForce(_ metadata: Logger.Metadata) -> [WorkerStatus.Setting] {
        var settings: [WorkerStatus.Setting] = []
        func add(_ key: String, _ value: Logger.MetadataValue) {
            switch value {
            case .string(let text): settings.append(WorkerStatus.Setting(key: key, value: text))
            case .stringConvertible(let convertible): settings.append(WorkerStatus.Setting(key: key, value: convertible.description))
            case .array(let values): settings.append(WorkerStatus.Setting(key: key, value: values.map { "\($0)" }.joined(separator: ",")))
            case .dictionary(let members):
                for (member, value) in members { add("\(key).\(member)", value) }
            }
        }
        for (key, value) in metadata { add(key, value) }
        return settings.sorted { $0.key < $1.key }
    }
}

/// What ``WorkerCore/status(nowMs:)`` copies out of the machine under its lock.
private struct MachineFigures {
    var partitions: [(KafkaTopicPartition, Int, Int64?)]
    var running: [PendingRequest]
    var runs: Int
    var paused: Bool
    var answered: Int
}
