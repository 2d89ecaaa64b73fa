import FeatureQuerySupport
import Kafka
import Logging

extension WorkerCore {
    /// Graceful shutdown: no more messages are read; in-flight requests get `shutdownTimeout` to finish,
    /// the rest are cancelled with `cancelled` outcomes (`shutdown`); returns once every outcome is delivered
    /// (or given up on) and its offset stored, or after ``ShutdownBudget/answers``: the drain keeps within
    /// the worker's part of the shutdown budget by itself (``ShutdownDeadline`` enforces it from outside too).
    func drain(in group: inout DiscardingTaskGroup) async {
        logger.info("draining", metadata: ["inFlight": .int(state.withLock { $0.inFlight })])
        await waitUntil(.noRuns, deadline: .now + settings.timeouts.shutdown)
        perform(transition { $0.shutDown() }, in: &group)
        await waitUntil(.idle, deadline: .now + ShutdownBudget.answers)
        // The last answers' transaction, before the consumer leaves the group (its generation commits them).
        if let transactions, !(await transactions.flush(timeout: ShutdownBudget.answers)) {
            logger.warning("the last answers' transaction did not commit; their requests are left to the next owner")
        }
    }

    /// Rebalance: before revoked partitions go, their requests finish or are cancelled within the revoke
    /// timeout, with outcomes published and offsets stored and committed, so the next owner neither loses nor
    /// repeats them: unless the group coordinator refuses commits now (see ``revokeWithoutCommits(_:)``).
    func rebalance(_ event: KafkaRebalanceEvent) async {
        metrics.rebalanced(event)
        defer { state.withLock { metrics.observe($0) } }
        switch event {
        case .assigned(let partitions):
            state.withLock { $0.assign(partitions) }
            transactions?.assign(partitions)
            // A new generation: commits are accepted again, and answers waiting for that go out.
            acceptCommits()
            logger.info("partitions assigned", metadata: ["partitions": .array(partitions.map { "\($0)" })])
        case .revoked(let partitions, let deadline):
            let window = min(deadline - .now, settings.timeouts.revoke)
            // Transactions carry their own check: a commit for a generation that moved on fails, and the
            // revoked answers with it.
            transactions?.beginRevoking(partitions)
            if transactions == nil {
                let outcome = await commitsAccepted(partitions, wait: Self.commitWait(window))
                guard outcome.succeeded else { return revokeWithoutCommits(partitions, outcome) }
            }
            let revoked = Set(partitions)
            // Runs get the first part of the window; the rest is kept for publishing the cancelled answers and
            // waiting for their delivery reports, which must be back before the partitions go (a producer's
            // first message to a topic waits for the topic's metadata: most of a second).
            await waitUntil(.partitionsDone(revoked), deadline: .now + window - Self.revokePublishReserve(window))
            let (cancelled, action) = transition { $0.revoke(revoked) }
            await perform(action)
            // Committed here, before the partitions go: librdkafka's own commit of unassigned partitions is sent
            // after the handler returns, racing the member's next JoinGroup, which makes a coordinator refuse it.
            if let transactions {
                if !(await transactions.flush(timeout: Self.revokePublishReserve(window))) {
                    logger.warning("the revoked partitions' last transaction did not commit; their requests are left to the next owner")
                }
                transactions.drop(partitions)
            } else {
                committed(await consumer.commitStoredOffsets(timeout: Self.commitWait(window)))
            }
            apply(transition { $0.forget(partitions, lost: false) })
            acceptCommits()
            logger.info("partitions revoked", metadata: ["partitions": .array(partitions.map { "\($0)" }), "cancelled": .int(cancelled)])
        case .lost(let partitions):
            // Another member owns them now: stop their work without answers; the new owner answers. Their
            // messages leave the in-flight count: a worker paused by them resumes.
            apply(transition { $0.forget(partitions, lost: true) })
            transactions?.drop(partitions)
            logger.warning("partitions lost", metadata: ["partitions": .array(partitions.map { "\($0)" })])
        }
    }

    /// The group coordinator refused the commit made as the revocation began (the group is already re-forming:
    /// librdkafka's mock coordinator does so for a whole join round, a real broker once the generation moved
    /// on), or could not be reached. Answers published now could not be committed either, and the partitions'
    /// next owner would answer the same requests again: their work stops without answers, as for lost
    /// partitions, and the next owner answers each once. Outcomes already on their way still arrive.
    func revokeWithoutCommits(_ partitions: [KafkaTopicPartition], _ outcome: KafkaCommitOutcome) {
        let inFlight = state.withLock { state in partitions.reduce(0) { $0 + (state.offsets[$1]?.inFlight ?? 0) } }
        apply(transition { $0.forget(partitions, lost: true) })
        // Answers waiting for commits: those of these partitions are dropped, the others go out.
        acceptCommits()
        var metadata: Logger.Metadata = ["partitions": .array(partitions.map { "\($0)" }), "leftToNextOwner": .int(inFlight)]
        if case .refusedDuringRebalance(let error) = outcome { metadata["error"] = .string(error.message) }
        if case .failed(let error) = outcome { metadata["error"] = .string(error.message) }
        logger.notice("partitions revoked while commits are refused; their requests are left to the next owner", metadata: metadata)
    }

    /// Whether the coordinator takes commits now, asked with a commit of where each partition's next owner
    /// should start (``PartitionOffsetTracker/resumeOffset``): what is stored, or before anything is done, the
    /// offset this owner started from. A commit of the stored offsets alone would not ask: with nothing stored
    /// since the last commit, librdkafka answers it without the coordinator.
    func commitsAccepted(_ partitions: [KafkaTopicPartition], wait: Duration) async -> KafkaCommitOutcome {
        let offsets = state.withLock { state in
            partitions.reduce(into: [KafkaTopicPartition: Int64]()) { $0[$1] = state.offsets[$1]?.resumeOffset }
        }
        let outcome = await consumer.commit(offsets, timeout: wait)
        committed(outcome)
        return outcome
    }

    /// How long a revocation waits for a commit: a tenth of the window, 200 ms to 2 s.
    static func commitWait(_ window: Duration) -> Duration {
        min(.seconds(2), max(.milliseconds(200), window / 10))
    }

    /// The part of a revocation's `window` kept for publishing cancellations: a quarter, at least 2 s, at most
    /// half the window.
    static func revokePublishReserve(_ window: Duration) -> Duration {
        min(window / 2, max(.seconds(2), window / 4))
    }

    /// Waits until `condition` holds or `deadline` passes (shutdown and rebalance paths). Event-driven: the
    /// machine's action resumes the wait when an event makes the condition true; a cancelled task returns at
    /// once (its sleep ends the wait) instead of polling.
    func waitUntil(_ condition: StateMachine.Condition, deadline: ContinuousClock.Instant) async {
        let id = state.withLock { $0.makeWaiter() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    if !self.state.withLock({ $0.wait(id, for: condition, continuation) }) { continuation.resume() }
                }
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                self.state.withLock { $0.stopWaiting(id) }?.resume()
            }
            await group.next()
            group.cancelAll()
        }
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
