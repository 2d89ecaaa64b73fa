import EngineExecution
import FeatureQuerySupport
import Kafka
import Logging
import ServiceLifecycle
import Synchronization
import RequestContract

/// The owner of every request's life: feeds each event to its ``StateMachine`` under one lock and
/// does what it answers once the lock is released: starts and cancels runs, publishes outcomes, stores
/// offsets, pauses or resumes the consumer, wakes waiters.
///
/// A message's way through the worker, in order: ``handle(_:in:)`` classifies it and hands it to the machine
/// (``StateMachine/receive(_:at:nowMs:)``); a run's task reports its outcome
/// (``StateMachine/runFinished(_:_:)``); ``deliver(_:)`` builds the outcome message
/// (``OutcomeMessage/init(_:worker:finishedAt:)``), sends it and reports it queued and delivered, which stores
/// the offset.
final class WorkerCore: Sendable {
    let settings: WorkerSettings
    let decoder: RequestDecoder
    let executor: RequestExecutor
    let publisher: OutcomePublisher
    /// Where the progress events of requests that ask for them go (``ProgressReporter``).
    let progressPublisher: ProgressPublisher
    /// The least time between two progress events of a run; tests shorten it before the worker runs.
    let progressInterval = Mutex<Duration>(.seconds(1))
    let events: WorkerEvents
    let tracing: WorkerTracing
    let logger: Logger
    let metrics: WorkerMetrics
    let state: Mutex<StateMachine>
    /// The group member the requests come from: offsets are stored in it, its partitions paused and resumed.
    /// Made before the core (its rebalances and commit answers reach the core through ``ConsumerCallbacks``).
    let consumer: KafkaConsumer
    /// The transactional publisher in the exactly-once mode (``WorkerSettings/ExactlyOnce``); `nil` otherwise.
    /// Outcomes and offsets then go through it (``deliverInTransaction(_:_:)``).
    let transactions: KafkaTransactions?
    /// Where runs and the message loop run: the HTTP client's loop thread in production (see
    /// ``QueryWorkerService/run()``); `nil`, the global pool.
    let taskExecutor: (any TaskExecutor)?
    /// The consumer's lag against the committed offsets, for the summary line, metrics and status page.
    let lagMonitor: PartitionLagMonitor
    /// What hears how each outcome ended: one call per delivered, abandoned or handed-over outcome.
    let outcomes: OutcomeObservers
    /// How often the worker says it still waits for the cluster (see ``connectivityLoop()``); tests shorten it
    /// before the worker runs.
    let kafkaWaitWarningInterval = Mutex<Duration>(.seconds(10))
    /// Orders offset stores in librdkafka as their computation under ``state`` (see ``transition(_:)``).
    private let storeOrder = Mutex<Void>(())
    /// The runs while they live, on runner tasks: cancelled with the worker's task, awaited before it returns.
    let runTasks: RunTasks
    /// Failed publications on their way from the producer's poll thread to ``redeliveryLoop()``.
    let redeliveries = RedeliveryQueue()
    /// The message loop's phase, for `/health/live` (``enter(_:)``).
    let phase = Mutex(WorkerStatus.Phase.starting)

    init(
        settings: WorkerSettings, decoder: RequestDecoder, executor: RequestExecutor, producer: KafkaProducer,
        consumer: KafkaConsumer, transactions: KafkaTransactions?, taskExecutor: (any TaskExecutor)? = nil,
        metrics: WorkerMetrics = WorkerMetrics(), logger: Logger
    ) {
        self.settings = settings
        self.consumer = consumer
        self.transactions = transactions
        self.metrics = metrics
        self.taskExecutor = taskExecutor
        self.runTasks = RunTasks(executor: taskExecutor)
        self.decoder = decoder
        self.executor = executor
        self.publisher = OutcomePublisher(producer: producer, settings: settings, logger: logger)
        self.progressPublisher = ProgressPublisher(
            producer: producer, topic: settings.topics.progress, workerID: settings.workerID, metrics: metrics, logger: logger)
        self.events = WorkerEvents(logger: logger)
        self.outcomes = OutcomeObservers(metrics: metrics, events: events)
        self.tracing = WorkerTracing(groupID: settings.groupID, logger: logger)
        self.logger = logger
        self.lagMonitor = PartitionLagMonitor(interval: Self.lagInterval(summaryInterval: settings.summaryInterval))
        self.state = Mutex(StateMachine(gate: InFlightGate(maxInFlight: settings.limits.maxInFlight, lowMark: settings.limits.lowMark)))
    }

    // MARK: Messages

    /// Handles one request-topic message. Publications become children of `group`, runs tasks of their own.
    func handle(_ message: KafkaConsumerMessage, in group: inout DiscardingTaskGroup) {
        let position = MessagePosition(message.topicPartition, offset: message.offset)
        let now = WallClock.nowMilliseconds()
        let trace = tracing.begin(message)
        let source = MessageSource(message, trace: trace)
        let arrival = classify(message, source: source, nowMs: now)
        let (receipt, action) = transition { $0.receive(arrival, at: position, nowMs: now) }
        metrics.received(receipt)
        switch (arrival, receipt) {
        case (_, .ignored), (.rejected, _), (.tooOld, _):
            break
        case (.cancel(let taskId), _):
            let runs = if case .cancel(let runs) = receipt { runs } else { 0 }
            logger.info("cancel", metadata: ["taskId": "\(taskId)", "runs": .int(runs)])
        case (.query(let request, _), _):
            let pending = PendingRequest(request: request, source: source, position: position)
            events.received(pending)
            switch receipt {
            case .started(let run): events.started(pending, run: run)
            case .shared(let run): events.shared(pending, run: run)
            case .ignored, .rejected, .cancel, .duplicate, .answeredWithoutRun: break
            }
        }
        trace.received(arrival, receipt)
        trace.withContext { perform(action, in: &group) }
    }

    /// Decodes the message and applies the host policy: what the machine needs to know of it.
    private func classify(_ message: KafkaConsumerMessage, source: MessageSource, nowMs now: Int64) -> StateMachine.Arrival {
        // The key as the source already holds it: one copy out of librdkafka's message, not two.
        switch decoder.decode(message.value, key: source.key, receivedAt: now) {
        case .rejected(let rejection):
            return .rejected(rejection, source, receivedAt: now)
        case .cancel(let taskId):
            return .cancel(taskId: taskId)
        case .query(let request):
            // Judged before anything else: a backlogged request is answered without a query, whatever it asks.
            let limit = settings.timeouts.maxRequestAge.clampedMilliseconds
            if let age = RequestAge.tooOld(timestampMs: message.timestampMs, nowMs: now, limitMs: limit) {
                return .tooOld(request, source, age)
            }
            if let refusal = executor.admit(request) {
                let rejection = RejectedRequest(
                    code: refusal.code, message: refusal.message, requestId: request.requestId, taskId: request.taskId)
                return .rejected(rejection, source, receivedAt: now)
            }
            return .query(request, source)
        }
    }

    // MARK: Events and actions

    /// Runs one event under the lock, then stores the offsets it made committable before the next event can
    /// compute its own: librdkafka keeps the offset stored last, so two answers finishing together must not
    /// store out of order (the commit would go back).
    func transition<Result: Sendable>(
        _ event: (inout StateMachine) -> (Result, StateMachine.Action)
    ) -> (Result, StateMachine.Action) {
        storeOrder.withLock { _ in
            let (result, action) = state.withLock { machine in
                let (result, action) = event(&machine)
                // Not in a `defer`: the deferred body took a copy of the whole machine to read its gauges.
                metrics.observe(machine.gauges)
                return (result, action)
            }
            if !action.store.isEmpty, let transactions {
                // Committed with the next transaction, which carries the answers they complete.
                transactions.store(action.store)
            } else if !action.store.isEmpty {
                do {
                    try consumer.storeOffsets(action.store)
                    // Committed at once, not at the next automatic commit: answers whose offsets wait for it
                    // are answered again by the partition's next owner if this worker dies or a rebalance
                    // starts meanwhile (a coordinator refuses commits while the group re-forms).
                    consumer.commitStoredOffsetsSoon()
                } catch {
                    logger.warning("storing offsets failed", metadata: ["error": "\(error)"])
                }
            }
            return (result, action)
        }
    }

    func transition(_ event: (inout StateMachine) -> StateMachine.Action) -> StateMachine.Action {
        transition { state in ((), event(&state)) }.1
    }

    /// Does an action: answers become children of `group`; a run goes to a runner task (``RunTasks``).
    func perform(_ action: StateMachine.Action, in group: inout DiscardingTaskGroup) {
        apply(action)
        if let start = action.start { self.start(start) }
        for delivery in action.publish {
            group.addTask { await self.deliver(delivery) }
        }
    }

    /// Does an action and returns once its answers are queued (their reports come back on the producer's
    /// thread, see ``deliver(_:)``): for the paths without the message loop's group (runs, revocation). Only
    /// ``StateMachine/receive(_:at:nowMs:)`` starts runs, and the message loop performs its actions with
    /// ``perform(_:in:)``.
    func perform(_ action: StateMachine.Action) async {
        apply(action)
        await deliver(action.publish)
    }

    /// Delivers answers: the common case, one request per run, in this task (no child task); more in child
    /// tasks. The group is in a function of its own so that the common case's task frame stays small.
    func deliver(_ deliveries: [StateMachine.Delivery]) async {
        if deliveries.count == 1 {
            await deliver(deliveries[0])
        } else if !deliveries.isEmpty {
            await deliverEach(deliveries)
        }
    }

    @inline(never)
    private func deliverEach(_ deliveries: [StateMachine.Delivery]) async {
        await withDiscardingTaskGroup { group in
            for delivery in deliveries {
                group.addTask { await self.deliver(delivery) }
            }
        }
    }

    /// The parts of an action that need no task: cancellations, flow control, waiters.
    func apply(_ action: StateMachine.Action) {
        for task in action.cancel { task.cancel() }
        action.resumeLoop?.resume()
        if action.resumePartitions {
            logger.notice("below the low mark; resuming partitions", metadata: ["lowMark": .int(settings.limits.lowMark)])
            consumer.resumeAll()
            metrics.intakePaused(false)
        }
        for waiter in action.resumeWaiters { waiter.resume() }
    }

    // MARK: Runs

    /// Starts a run on a runner task (``RunTasks``); it can be cancelled alone, which aborts its HTTP
    /// transfers, and the worker's cancellation cancels it too.
    private func start(_ start: StateMachine.RunStart) {
        let task = runTasks.start(start.run) { await self.execute(start) }
        if state.withLock({ $0.runTaskCreated(start.run, task) }) { task.cancel() }
    }

    private func execute(_ start: StateMachine.RunStart) async {
        // Deadlines while running are the deadline loop's (see deadlineLoop()), not a timer per request.
        let progress = start.request.progress ? progressReporter(for: start.run) : nil
        let outcome = await RequestLogContext.$current.withValue(start.logIdentity) {
            await executor.execute(start.request, progress: progress)
        }
        // Published only now, after the engine returned: a stored layer's object was completed and size-checked
        // inside `execute`, so no outcome (nor, in the exactly-once mode, any transaction) names an incomplete one.
        await deliver(finish(start.run, outcome))
    }

    /// The progress reporter of a run whose requests asked for progress: its events go to every request on
    /// the run when each is made (runs are shared only by requests that all asked, see ``WorkFingerprint``).
    private func progressReporter(for run: RunID) -> ProgressReporter {
        ProgressReporter(
            intervalMs: progressInterval.withLock { $0 }.clampedMilliseconds, worker: settings.workerID,
            askers: { [weak self] in
                self?.state.withLock { $0.registry.requests(of: run) }.map { ($0.requestId, $0.taskId) } ?? []
            },
            publish: { [progressPublisher] events in progressPublisher.publish(events) })
    }

    /// The run's outcome to the machine; returns the answers to deliver. Synchronous and not inlined, so the
    /// machine's whole action never sits in the run task's frame.
    @inline(never)
    private func finish(_ run: RunID, _ outcome: ExecutionOutcome) -> [StateMachine.Delivery] {
        let action = transition { $0.runFinished(run, outcome) }
        apply(action)
        return action.publish
    }
}
