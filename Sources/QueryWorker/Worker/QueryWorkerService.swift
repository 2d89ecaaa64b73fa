import FeatureQuerySupport
import FeatureService
import Kafka
import Logging
import ServiceLifecycle
import QueryLanguage
import Synchronization
import RequestContract

/// The query worker: consumes requests, runs them in a task group, supersedes like `.task(id:)`, and
/// publishes exactly one outcome per request before storing its offset.
///
/// Run it in a `ServiceGroup` after its producer and consumer (`[producer, worker.consumer, worker]`), so
/// that on shutdown the worker finishes first, then the consumer commits and leaves, then the producer
/// flushes.
final class QueryWorkerService: Service, Sendable {
    let core: WorkerCore

    /// The consumer the worker reads from; run it in the same service group.
    var consumer: KafkaConsumer { core.consumer }
    /// The transactional publisher in the exactly-once mode; run it in the same group, after the consumer.
    var transactions: KafkaTransactions? { core.transactions }

    /// A worker running its requests through `engine` (in production the router of every protocol's engine),
    /// accepting the credential names of `credentials`.
    ///
    /// With `taskExecutor` (the HTTP client's, ``HTTPClient/taskExecutor``) the message loop and every run
    /// execute on the HTTP client's loop thread: a request's way from message to outcome then takes no thread
    /// hop but the consumer's hand-over and the HTTP exchange's own, which the loop serves between turns.
    init(
        settings: WorkerSettings, engine: any FeatureServiceEngine, credentials: CredentialNames, producer: KafkaProducer,
        taskExecutor: (any TaskExecutor)? = nil, stores: ResultStoreProvider? = nil, metrics: WorkerMetrics = WorkerMetrics(),
        logger: Logger
    ) throws {
        let catalog = try settings.namedQueryCatalog(limits: .default)
        // A request without a deadline gets the operator's `requestTimeout` (the settings refuse zero), so nothing
        // runs forever; the deadline loop then ends it like any other.
        let decoder = RequestDecoder(
            namedQueries: catalog, limits: settings.requestLimits, credentials: credentials,
            defaultTimeoutMs: settings.timeouts.request.clampedMilliseconds)
        let executor = RequestExecutor(
            engine: engine, hostPolicy: try settings.hostPolicy(), workerID: settings.workerID,
            maxResultTotalBytes: settings.limits.maxResultTotalBytes, stores: stores,
            storeObserver: { layer in metrics.storeObserved(layer) }, clock: { WallClock.nowMilliseconds() })
        // The Kafka clients first, then the core that holds them; the consumer's calls reach the core once it
        // exists (see ConsumerCallbacks).
        let callbacks = ConsumerCallbacks()
        let consumer = try KafkaConsumer(
            configuration: settings.consumerConfiguration(closeTimeout: ShutdownBudget.consumerClose), logger: logger
        ) { event in
            await callbacks.rebalance(event)
        } commitHandler: { outcome in
            callbacks.committed(outcome)
        }
        let transactions: KafkaTransactions? =
            if settings.exactlyOnce.enabled {
                KafkaTransactions(
                    producer: producer, consumer: consumer,
                    configuration: KafkaTransactionConfiguration(interval: settings.exactlyOnce.interval), logger: logger
                ) { outcome in metrics.transactionEnded(outcome) }
            } else {
                nil
            }
        core = WorkerCore(
            settings: settings, decoder: decoder, executor: executor, producer: producer, consumer: consumer,
            transactions: transactions, taskExecutor: taskExecutor, metrics: metrics, logger: logger)
        callbacks.connect(core)
    }

    func run() async throws {
        let runTasks = core.runTasks
        await withTaskExecutorPreference(core.taskExecutor) {
            // Runs are not children of the loop's group (see RunTasks): they are cancelled with this task here.
            await withTaskCancellationHandler {
                await runMessageLoop()
            } onCancel: {
                runTasks.cancelAll()
            }
        }
        core.enter(.stopped)
        core.logger.info("worker stopped")
    }

    private func runMessageLoop() async {
        let core = self.core
        let consumer = self.consumer
        let messages = consumer.messages
        core.enter(.running)
        await withDiscardingTaskGroup { group in
            group.addTask { await core.loadOutcomeTopicsMetadata() }
            group.addTask { await core.redeliveryLoop() }
            group.addTask { await core.summaryLoop() }
            group.addTask { await core.deadlineLoop() }
            group.addTask { await core.connectivityLoop() }
            group.addTask { await core.partitionPauseLoop() }
            group.addTask {
                await core.lagMonitor.run(consumer) { lag in
                    core.metrics.recordPartitions(lag.mapValues { (committed: $0.committed, lag: $0.lag) })
                }
            }
            do {
                // Ends on graceful shutdown without a hop through a second task per message (see
                // KafkaConsumerMessages.endingOnGracefulShutdown()).
                for try await message in messages.endingOnGracefulShutdown() {
                    core.handle(message, in: &group)
                    // At the bound, take no more messages (the consumer's read-ahead still holds some) until
                    // the gate resumes: pausing the partitions alone does not bound what is in flight.
                    await core.waitWhilePaused()
                }
            } catch is CancellationError {
                core.logger.info("worker cancelled; stopping")
            } catch {
                core.logger.error("reading requests failed", metadata: ["error": "\(error)"])
            }
            core.stopIntake()
            core.enter(.draining)
            await core.drain(in: &group)
            group.cancelAll()
            // What the drain left running is cancelled too, and the loop returns once the last run ended.
            core.runTasks.cancelAll()
            await core.runTasks.waitUntilNoneLive()
        }
    }
}
