import RequestContract
internal import Kafka

// MARK: What the machine hands out

/// A query request the worker holds until it is answered: the decoded request and where its message came from.
struct PendingRequest: Sendable {
    var request: QueryRequest
    var source: MessageSource
    var position: MessagePosition
}

/// What makes two requests of one task "the same work": equal targets, query and credential. Equal
/// fingerprints share a run (`.task(id:)` does not restart for an unchanged id); different ones supersede it.
/// The credential is part of it because one credential may see features another may not: a request must never
/// be answered with a run made under another request's credential. `progress` is part of it because a run
/// publishes progress for the request it started with: a request asking for events must not join a run that
/// sends none, and one asking for none must not receive another's (the newer request supersedes instead).
struct WorkFingerprint: Equatable, Sendable {
    /// The request itself, compared by the members named above: a request is one boxed value (``QueryRequest``), so
    /// holding it costs one reference where copies of the five members cost one per string and array in them,
    /// and a fingerprint is copied wherever the registry's runs are.
    private let request: QueryRequest

    init(_ request: QueryRequest) {
        self.request = request
    }

    static func == (lhs: WorkFingerprint, rhs: WorkFingerprint) -> Bool {
        lhs.request.targets == rhs.request.targets && lhs.request.query == rhs.request.query
            && lhs.request.credential == rhs.request.credential && lhs.request.progress == rhs.request.progress
            && lhs.request.delivery == rhs.request.delivery
    }
}

extension WorkerCore.StateMachine {
    /// What a message is, decided before it reaches the machine (decoding and the host policy need no state).
    enum Arrival: Sendable {
        /// A query the host policy admits; its deadline is set (its own, or the worker's request timeout).
        case query(QueryRequest, MessageSource)
        /// A cancel message for a task.
        case cancel(taskId: String)
        /// A valid query whose message is older than `maxRequestAge`: answered `expired` at once, without a run
        /// and without touching its task's run (a backlog must not supersede or share the current work).
        case tooOld(QueryRequest, MessageSource, RequestAge)
        /// No valid request, or a request the host policy refuses: answered `rejected` at once.
        case rejected(RejectedRequest, MessageSource, receivedAt: Int64)
    }

    /// One request's terminal outcome, decided exactly once, before it becomes a message
    /// (``OutcomeMessage/init(_:worker:finishedAt:)`` builds every one).
    ///
    /// Indirect: its payloads (a whole request and a result) live in one box, so an answer moves through the
    /// machine's actions and the run's async frame as a pointer, not as half a kilobyte; that keeps the run
    /// task's frame under the task allocator's slab size.
    indirect enum Answer: Sendable {
        case rejected(RejectedRequest, MessageSource, receivedAt: Int64)
        /// The run's result, addressed to this request when it shared the run.
        case result(PendingRequest, ResultMessage)
        /// The run finished and every layer failed.
        case failed(PendingRequest, ContractError)
        /// Coordination answered the request before its run finished (or without one).
        case interrupted(PendingRequest, Interruption)
    }

    /// An answer to publish for the message at `position`.
    struct Delivery: Sendable {
        var position: MessagePosition
        var answer: Answer
    }

    /// A run to start: its task runs `request`'s query and reports with ``runFinished(_:_:)``.
    struct RunStart: Sendable {
        var run: RunID
        var request: QueryRequest
    }

    /// What the worker does after an event, outside the lock.
    struct Action: Sendable {
        /// Runs no request waits for any more.
        var cancel: [RunHandle] = []
        var start: RunStart?
        var publish: [Delivery] = []
        /// Offsets that moved forward, to store in the consumer (in the order of computation: see
        /// ``WorkerCore/transition(_:)``).
        var store: [KafkaTopicPartition: Int64] = [:]
        /// The message loop, held by the gate, may go on.
        var resumeLoop: CheckedContinuation<Void, Never>?
        /// The gate opened after the partitions were paused in librdkafka: resume them.
        var resumePartitions = false
        /// Waiters whose condition now holds.
        var resumeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// What became of a received message, for the log.
    enum Receipt: Hashable, Sendable {
        /// Not taken: its partition is not held, or its offset is not above the last one received.
        case ignored
        case rejected
        /// A cancel message; it stopped this many runs.
        case cancel(runs: Int)
        case started(RunID)
        case shared(RunID)
        /// The request id is on a run already: no answer of its own, the message is done.
        case duplicate
        /// Answered without a run (expired or too old on arrival, or received during shutdown).
        case answeredWithoutRun
    }

    /// What to do with an outcome the producer could not deliver.
    enum DeliveryFailureAction: Sendable {
        /// The partition is still held: send it again after a backoff.
        case retry
        /// Leave it (and its offset) to the partition's next owner.
        case giveUp(Action)
    }
}
