import EngineExecution
import FeatureQuerySupport
import Kafka
import Logging
import Synchronization
import RequestContract

/// Counts the summary line needs that the request machine does not keep: answers that were errors.
final class SummaryCounts: Sendable {
    private let errors = Atomic<Int>(0)

    /// An outcome was delivered. Counts toward `errorRate`: requests that got no result because something went
    /// wrong. Superseded and cancelled requests were asked to stop; they are not errors.
    func delivered(_ message: OutcomeMessage) {
        guard case .error(let error) = message else { return }
        switch error.status {
        case .failed, .rejected, .expired: errors.add(1, ordering: .relaxed)
        default: break
        }
    }

    var errorCount: Int { errors.load(ordering: .relaxed) }
}

extension WorkerCore {
    /// How often ``PartitionLagMonitor`` refreshes: the summary's interval, at most 15 s (the lag is also a
    /// metric and a status-page figure, which need it when the summary line is off).
    static func lagInterval(summaryInterval: Duration) -> Duration {
        summaryInterval > .zero ? min(summaryInterval, .seconds(15)) : .seconds(15)
    }

    /// Logs throughput, errors, in-flight requests, the Kafka state and per-partition progress and lag every
    /// `summaryInterval`, numbers as JSON numbers. The lag is the ``PartitionLagMonitor``'s last figures: the
    /// line never waits for the cluster.
    func summaryLoop() async {
        guard settings.summaryInterval > .zero else { return }
        var last = (answered: state.withLock { $0.answeredCount }, errors: outcomes.summaryCounts.errorCount)
        while !Task.isCancelled {
            do { try await Task.sleep(for: settings.summaryInterval) } catch { return }
            let now = (answered: state.withLock { $0.answeredCount }, errors: outcomes.summaryCounts.errorCount)
            logger.info("summary", metadata: summary(answered: now.answered - last.answered, errors: now.errors - last.errors))
            last = now
        }
    }

    /// The summary line's fields for an interval in which `answered` outcomes went out, `errors` of them errors.
    func summary(answered: Int, errors: Int) -> Logger.Metadata {
        let nowMs = WallClock.nowMilliseconds()
        let (inFlight, runs, paused, oldestAgeMs, trackers) = state.withLock { state in
            (state.inFlight, state.registry.runCount, state.gate.isPaused, state.oldestAgeMs(nowMs: nowMs), state.offsets.partitions)
        }
        let lag = lagMonitor.snapshot
        let seconds = max(Double(settings.summaryInterval.components.seconds), 1)
        var partitions: Logger.Metadata = [:]
        for (partition, tracker) in trackers {
            partitions["\(partition)"] = .dictionary(Self.partitionSummary(tracker, lag.lag[partition]))
        }
        var fields: Logger.Metadata = [
            "answeredPerSecond": .rounded(Double(answered) / seconds),
            "errorRate": .rounded(answered > 0 ? Double(errors) / Double(answered) : 0, places: 3),
            "requestsInFlight": .int(inFlight), "runsInFlight": .int(runs), "intakePaused": .stringConvertible(paused),
            "oldestAgeMs": .int(oldestAgeMs), "assignedPartitions": .int(trackers.count),
            "partitions": .dictionary(partitions),
            "kafka": .string(kafkaState().rawValue),
        ]
        fields["bufferedMessages"] = .int(consumer.bufferedCount)
        if !lag.lag.isEmpty { fields["consumerLag"] = .int(lag.lag.values.reduce(0) { $0 + $1.lag }) }
        if let error = lag.lastError {
            fields["lagError"] = .string(error.message)
            if let refreshedAt = lag.refreshedAt { fields["lagAgeMs"] = .int((ContinuousClock.now - refreshedAt).clampedMilliseconds) }
        }
        return fields
    }

    /// One partition's figures: requests in flight, the offset stored for the next commit, and the lag
    /// against the committed offset (absent until the first lag refresh answers).
    static func partitionSummary(_ tracker: PartitionOffsetTracker, _ lag: PartitionLag?) -> Logger.Metadata {
        var fields: Logger.Metadata = ["requestsInFlight": .int(tracker.inFlight)]
        if let stored = tracker.committableOffset { fields["storedOffset"] = .int(stored) }
        guard let lag else { return fields }
        if let committed = lag.committed { fields["committedOffset"] = .int(committed) }
        fields["endOffset"] = .int(lag.end)
        fields["consumerLag"] = .int(lag.lag)
        if let readAhead = lag.readAhead { fields["readAhead"] = .int(readAhead) }
        return fields
    }
}

extension WorkerCore.StateMachine.RunStart {
    /// The run's ids for the engines' log lines (``RequestLogContext``): the request that started the run
    /// (requests that join it later are on their `shared` status lines, with the same `run`).
    var logIdentity: RequestLogContext.Identity {
        RequestLogContext.Identity(run: run.rawValue, requestId: request.requestId, taskId: request.taskId)
    }
}

extension WorkerCore.StateMachine {
    /// The time since the oldest running request arrived, in milliseconds; 0 with none running.
    func oldestAgeMs(nowMs: Int64) -> Int64 {
        var oldest: Int64?
        for case .running(let pending, _) in messages.values {
            oldest = min(oldest ?? pending.request.receivedAt, pending.request.receivedAt)
        }
        return oldest.map { max(0, nowMs - $0) } ?? 0
    }
}

extension Logger.MetadataValue {
    /// A number the JSON handler writes as a JSON number, not a string (`.stringConvertible` of an integer).
    static func int(_ value: some BinaryInteger & Sendable & CustomStringConvertible) -> Logger.MetadataValue { .stringConvertible(value) }

    /// A JSON number rounded to `places` decimals.
    static func rounded(_ value: Double, places: Int = 1) -> Logger.MetadataValue {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return .stringConvertible((value * scale).rounded() / scale)
    }
}
