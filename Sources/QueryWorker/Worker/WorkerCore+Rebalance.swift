import Kafka
import Logging
import Synchronization

extension WorkerCore {
    /// Rebalance: before revoked partitions go, their requests finish or are cancelled within the revoke
    /// timeout, with outcomes published and offsets stored and committed, so the next owner neither loses nor
    /// repeats them: unless the group coordinator refuses commits now (see ``revokeWithoutCommits(_:)``).
    func rebalance(_ event: KafkaRebalanceEvent) async {
        metrics.rebalanced(event)
        defer { state.withLock { metrics.observe($0.gauges) } }
        switch event {
        case .assigned(let partitions):
            state.withLock { $0.assign(partitions) }
            transactions?.assign(partitions, inherited: consumer.inheritedOffsets(partitions))
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
            // Their delivery reports come back on the producer's thread: the partitions are done once every
            // answer is delivered (or given up on) and its offset stored.
            await waitUntil(.partitionsDone(revoked), deadline: .now + Self.revokePublishReserve(window))
            // Committed here, before the partitions go: librdkafka's own commit of unassigned partitions is sent
            // after the handler returns, racing the member's next JoinGroup, which makes a coordinator refuse it.
            var answered = 0
            if let transactions {
                if !(await transactions.flush(timeout: Self.revokePublishReserve(window))) {
                    logger.warning("the revoked partitions' last transaction did not commit; their requests are left to the next owner")
                }
                transactions.drop(partitions)
            } else {
                let outcome = await consumer.commitStoredOffsets(timeout: Self.commitWait(window))
                committed(outcome)
                // The last commit failed: what it would have covered is answered again by the next owner.
                if !outcome.succeeded { answered = leftUncommitted(partitions) }
            }
            apply(transition { $0.forget(partitions, lost: false) })
            acceptCommits()
            logger.info("partitions revoked", metadata: [
                "partitions": .array(partitions.map { "\($0)" }), "cancelled": .int(cancelled), "answeredUncommitted": .int(answered),
            ])
        case .lost(let partitions):
            // Another member owns them now: stop their work without answers; the new owner answers. Their
            // messages leave the in-flight count: a worker paused by them resumes.
            // (Exactly-once: their open transaction aborts, and its answers with it.)
            let answered = transactions == nil ? leftUncommitted(partitions) : 0
            apply(transition { $0.forget(partitions, lost: true) })
            transactions?.drop(partitions)
            logger.warning("partitions lost", metadata: [
                "partitions": .array(partitions.map { "\($0)" }), "answeredUncommitted": .int(answered),
            ])
        }
    }

    /// The group coordinator refused the commit made as the revocation began (the group is already re-forming:
    /// librdkafka's mock coordinator does so for a whole join round, a real broker once the generation moved
    /// on), or could not be reached. Answers published now could not be committed either, and the partitions'
    /// next owner would answer the same requests again: their work stops without answers, as for lost
    /// partitions, and the next owner answers each once. Outcomes already on their way still arrive.
    func revokeWithoutCommits(_ partitions: [KafkaTopicPartition], _ outcome: KafkaCommitOutcome) {
        let inFlight = state.withLock { state in partitions.reduce(0) { $0 + (state.offsets[$1]?.inFlight ?? 0) } }
        let answered = leftUncommitted(partitions)
        apply(transition { $0.forget(partitions, lost: true) })
        // Answers waiting for commits: those of these partitions are dropped, the others go out.
        acceptCommits()
        var metadata: Logger.Metadata = [
            "partitions": .array(partitions.map { "\($0)" }), "leftToNextOwner": .int(inFlight),
            "answeredUncommitted": .int(answered),
        ]
        if case .refusedDuringRebalance(let error) = outcome { metadata["error"] = .string(error.message) }
        if case .failed(let error) = outcome { metadata["error"] = .string(error.message) }
        logger.notice("partitions revoked while commits are refused; their requests are left to the next owner", metadata: metadata)
    }

    /// Partitions about to go without a commit: how many answers their next owner will give again (counted in
    /// ``WorkerMetrics/answersLeftUncommitted(_:)``). At-least-once delivery repeats these; the figure lets an
    /// operator see how many, and tell them from repeats with another cause.
    func leftUncommitted(_ partitions: [KafkaTopicPartition]) -> Int {
        let answered = state.withLock { $0.answeredPastCommit(partitions) }
        metrics.answersLeftUncommitted(answered)
        return answered
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
}
