internal import CRDKafka
package import Logging
import ServiceLifecycle
import Synchronization

/// A group member that reads messages from librdkafka as an `AsyncSequence`.
///
/// Offsets are stored only when the caller says a message is done (``storeOffset(for:)``): a message that
/// was read but not finished is read again after a crash or a rebalance (at-least-once). The blocking poll
/// runs on a thread of its own inside ``run()``, so it never holds one of Swift's cooperative threads.
package final class KafkaConsumer: Service, Sendable {
    package let configuration: KafkaConsumerConfiguration
    let handle: RDKafkaHandle
    let core: KafkaConsumerCore
    let logger: Logger
    /// The poll loop's thread, and the bound on waiting for the close (``KafkaConsumerConfiguration/closeTimeout``).
    let thread: KafkaServiceThread
    /// Commits stored offsets as soon as they are stored (``commitStoredOffsetsSoon()``).
    let committer = KafkaCommitThread()
    let commitHandler: @Sendable (KafkaCommitOutcome) -> Void

    /// Creates the consumer and checks every configuration property. Nothing is fetched until ``run()``.
    ///
    /// - Parameters:
    ///   - rebalanceHandler: told of assigned partitions, and of revoked ones before they are given up; the
    ///     consumer waits for it up to the configuration's `revokeTimeout`.
    ///   - commitHandler: told what the coordinator answered to each commit of stored offsets (librdkafka's
    ///     automatic ones, on the poll thread, and ``commitStoredOffsetsSoon()``'s, on the commit thread): keep it short.
    package init(
        configuration: KafkaConsumerConfiguration,
        logger: Logger,
        rebalanceHandler: @escaping @Sendable (KafkaRebalanceEvent) async -> Void = { _ in },
        commitHandler: @escaping @Sendable (KafkaCommitOutcome) -> Void = { _ in }
    ) throws(KafkaError) {
        guard !configuration.topics.isEmpty else {
            throw KafkaError(code: .invalidConfiguration, message: "a consumer needs at least one topic")
        }
        let core = KafkaConsumerCore(configuration: configuration, logger: logger, rebalanceHandler: rebalanceHandler)
        let context = RDKafkaCallbackContext(logger: logger) { rk, err, list in
            core.rebalance(rk, err, list)
        } commit: { rk, err, list in
            commitHandler(KafkaCommitOutcome(err, list))
        }
        self.handle = try RDKafkaHandle(kind: .consumer, properties: configuration.properties, context: context) { conf in
            rd_kafka_conf_set_rebalance_cb(conf) { rk, err, list, opaque in
                guard let rk, let list, let context = RDKafkaCallbackContext.from(opaque) else { return }
                context.rebalance?(rk, err, list)
            }
            rd_kafka_conf_set_offset_commit_cb(conf) { rk, err, list, opaque in
                guard let rk, let context = RDKafkaCallbackContext.from(opaque) else { return }
                context.commit?(rk, err, list)
            }
        }
        // Logs, errors and statistics are served by the consumer poll too.
        rd_kafka_poll_set_consumer(handle.pointer)
        self.core = core
        self.configuration = configuration
        self.logger = logger
        self.thread = KafkaServiceThread(stopTimeout: configuration.closeTimeout)
        self.commitHandler = commitHandler
    }

    /// The messages, in order per partition. Ends when the consumer stops; throws if it failed fatally.
    /// One reader at a time.
    package var messages: KafkaConsumerMessages { KafkaConsumerMessages(consumer: self) }

    /// Partitions currently assigned to this member.
    package var assignment: Set<KafkaTopicPartition> { core.state.withLock { $0.assigned } }

    /// Joins the group and reads until graceful shutdown or cancellation, then leaves the group cleanly
    /// (stored offsets are committed and the partitions handed over).
    ///
    /// Returns at most the configuration's `closeTimeout` after being told to stop, whatever the cluster does:
    /// a close still blocked in librdkafka then finishes alone on the consumer's thread (see
    /// ``KafkaConsumerConfiguration/closeTimeout``).
    package func run() async throws {
        guard !core.started.exchange(true, ordering: .sequentiallyConsistent) else {
            throw KafkaError(code: .shutdown, message: "KafkaConsumer.run() was called twice")
        }
        let finished = try await KafkaPollThread.runService(name: "kafka-consumer", handle: handle, thread: thread) {
            self.pollLoop()
        } stop: {
            self.triggerGracefulShutdown()
        }
        if !finished {
            // The close goes on alone; the reader must not wait for it.
            finish(handle.context.fatalError.withLock { $0 })
        }
    }

    /// Stops reading and leaves the group; ``run()`` returns once that is done, or after the configuration's
    /// `closeTimeout`.
    package func triggerGracefulShutdown() {
        core.stopRequested.store(true, ordering: .sequentiallyConsistent)
        thread.stopRequested()
    }

    // MARK: Pause and resume

    /// Stops fetching every assigned partition, and any assigned later, without leaving the group, until
    /// ``resumeAll()``. Messages already read are still delivered.
    package func pauseAll() {
        core.withPauseChanges(handle.pointer) { $0.pauseAll() }
    }

    package func resumeAll() {
        core.withPauseChanges(handle.pointer) { $0.resumeAll() }
    }
}
