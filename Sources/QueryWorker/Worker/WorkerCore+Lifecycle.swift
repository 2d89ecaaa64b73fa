import Kafka
import Logging

extension WorkerCore {
    /// Graceful shutdown: no more messages are read; in-flight requests get `shutdownTimeout` to finish,
    /// the rest are cancelled with `cancelled` outcomes; returns once every outcome is delivered and its
    /// offset stored.
    func drain(in group: inout DiscardingTaskGroup) async {
        logger.info("draining", metadata: ["inFlight": "\(state.withLock { $0.inFlight })"])
        let deadline = ContinuousClock.now + settings.timeouts.shutdown
        await waitUntil(deadline: deadline) { $0.registry.runCount == 0 }
        let cancellation = state.withLock { $0.registry.cancelForShutdown() }
        apply(cancellation, in: &group)
        await waitUntil(deadline: .now + settings.timeouts.shutdown) { $0.registry.runCount == 0 && $0.publishing == 0 && $0.pending.isEmpty }
    }

    /// Rebalance: before revoked partitions go, their requests finish or are cancelled within the revoke
    /// timeout, with outcomes published and offsets stored, so the next owner neither loses nor repeats them.
    func rebalance(_ event: KafkaRebalanceEvent) async {
        switch event {
        case .assigned(let partitions):
            state.withLock { $0.offsets.assign(partitions) }
            logger.info("partitions assigned", metadata: ["partitions": .array(partitions.map { "\($0)" })])
        case .revoked(let partitions, let deadline):
            let revoked = Set(partitions)
            // Runs get the first part of the window; the rest is kept for publishing the cancelled answers and
            // waiting for their delivery reports, which must be back before the partitions go (a producer's
            // first message to a topic waits for the topic's metadata: most of a second).
            let window = min(deadline - .now, settings.timeouts.revoke)
            let cutoff = ContinuousClock.now + window - Self.revokePublishReserve(window)
            await waitUntil(deadline: cutoff) { state in
                revoked.allSatisfy { (state.offsets[$0]?.inFlight ?? 0) == 0 }
            }
            let cancellation = state.withLock { $0.registry.cancel(partitions: revoked) }
            cancelRuns(cancellation.runs)
            await answerAll(cancellation.answers)
            applyGate(forgetting: partitions)
            logger.info("partitions revoked", metadata: ["partitions": .array(partitions.map { "\($0)" }), "cancelled": "\(cancellation.answers.count)"])
        case .lost(let partitions):
            // Another member owns them now: stop their work without answers; the new owner answers.
            let (cancellation, gateAction) = state.withLock { state -> (TaskCancellation, InFlightGate.Action) in
                let cancellation = state.registry.cancel(partitions: Set(partitions))
                for answer in cancellation.answers { state.pending[answer.request.requestId] = nil }
                _ = state.offsets.revoke(partitions)
                // Their messages leave the in-flight count: a worker paused by them must resume.
                return (cancellation, state.gate.update(inFlight: state.gateLoad))
            }
            cancelRuns(cancellation.runs)
            applyGate(gateAction)
            logger.warning("partitions lost", metadata: ["partitions": .array(partitions.map { "\($0)" })])
        }
    }

    /// Drops the partitions' offset state, and with it their messages from the in-flight count: the gate must
    /// hear of it, or a worker paused by them would stay paused (`pauseAll` holds for partitions assigned later).
    private func applyGate(forgetting partitions: [KafkaTopicPartition]) {
        let action = state.withLock { state in
            _ = state.offsets.revoke(partitions)
            return state.gate.update(inFlight: state.gateLoad)
        }
        applyGate(action)
    }

    /// The part of a revocation's `window` kept for publishing cancellations: a quarter, at least 2 s, at most
    /// half the window.
    static func revokePublishReserve(_ window: Duration) -> Duration {
        min(window / 2, max(.seconds(2), window / 4))
    }

    /// Logs throughput, in-flight requests and per-partition progress every `summaryInterval`.
    func summaryLoop() async {
        guard settings.summaryInterval > .zero else { return }
        var last = state.withLock { $0.answered.values.reduce(0, +) }
        while !Task.isCancelled {
            do { try await Task.sleep(for: settings.summaryInterval) } catch { return }
            let (answered, inFlight, runs, partitions) = state.withLock { state in
                (state.answered.values.reduce(0, +), state.inFlight, state.registry.runCount,
                 state.offsets.summary)
            }
            let seconds = Double(settings.summaryInterval.components.seconds)
            var lag: Logger.Metadata = [:]
            if let consumer = consumer.withLock({ $0 }) {
                for (partition, behind) in consumer.lag(for: Array(consumer.assignment)) { lag["\(partition)"] = "\(behind)" }
            }
            logger.info("summary", metadata: [
                "answeredPerSecond": "\(Double(answered - last) / max(seconds, 1))", "inFlight": "\(inFlight)",
                "runs": "\(runs)", "partitions": .dictionary(partitions), "lag": .dictionary(lag),
            ])
            last = answered
        }
    }

    /// Polls the state until `condition` holds or `deadline` passes (shutdown and rebalance paths only).
    func waitUntil(deadline: ContinuousClock.Instant, _ condition: (WorkerState) -> Bool) async {
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}

extension AssignmentOffsetTracker {
    /// Per partition: messages in flight and the next offset to commit, for the summary log.
    var summary: Logger.Metadata {
        var result: Logger.Metadata = [:]
        for (partition, tracker) in partitions {
            result["\(partition)"] = "inFlight=\(tracker.inFlight) committable=\(tracker.committableOffset.map(String.init) ?? "-")"
        }
        return result
    }
}
