import Kafka

/// What makes two requests of one task "the same work": equal targets and query. Equal fingerprints share a
/// run (`.task(id:)` does not restart for an unchanged id); different ones supersede it.
struct WorkFingerprint: Equatable, Sendable {
    var targets: [QueryTarget]
    var query: QuerySpec

    init(_ request: QueryRequest) {
        targets = request.targets
        query = request.query
    }
}

/// A request the worker holds until it is answered: the decoded request and where its message came from.
struct PendingRequest: Sendable {
    var request: QueryRequest
    var source: MessageSource
    var position: MessagePosition
}

/// Everything the worker shares between its message loop, its runs and its rebalance handler, kept under
/// one lock by ``WorkerCore``. The state machines decide; the core acts after the lock is released.
struct WorkerState {
    var registry = TaskRegistry<WorkFingerprint>()
    var offsets = AssignmentOffsetTracker()
    var gate: InFlightGate
    /// Requests attached to runs, by requestId, until they are answered.
    var pending: [String: PendingRequest] = [:]
    /// The task of each run, so a supersession or cancel can stop it at once.
    var runTasks: [RunID: Task<Void, Never>] = [:]
    /// Runs cancelled before their task was registered (the two race).
    var cancelledEarly: Set<RunID> = []
    /// Outcomes being published (sent, delivery report not yet back).
    var publishing = 0
    /// Counters for the periodic summary.
    var answered: [TerminalStatus: Int] = [:]
    /// The message loop, waiting for the gate to resume (see ``WorkerCore/waitWhilePaused()``).
    var resumeWaiter: CheckedContinuation<Void, Never>?
    /// The partitions are paused in librdkafka (the gate stayed closed; see ``WorkerCore/partitionPauseDelay``).
    var partitionsPaused = false
    /// The message loop is ending (graceful shutdown or cancellation): it must not wait for a resume.
    var loopStopping = false

    init(gate: InFlightGate) {
        self.gate = gate
    }

    /// Messages received but not done, across partitions: what drains and revocations wait for.
    var inFlight: Int { offsets.inFlight }

    /// Messages received whose outcome is not yet in the producer's queue: what the gate bounds. An outcome
    /// waiting only for its delivery report holds no run and no more memory than the producer's queue allows,
    /// so it must not hold back the next request (a slot per delivery round trip would cap throughput at
    /// `maxInFlight` / the producer's latency).
    var gateLoad: Int { offsets.active }
}
