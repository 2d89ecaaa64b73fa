internal import Kafka

/// Which query runs for which task, and who is answered when: supersession as SwiftUI's `.task(id:)` does
/// it (per task, the id being the work asked for: a change cancels the running work and starts the new), plus
/// sharing. A value type with no I/O, no clock and no tasks: one part of ``WorkerCore/StateMachine``, which turns
/// each transition's result (start a run, cancel runs, answers) into the worker's action.
///
/// **One live run per task.** A request for a task whose run is in flight either *shares* that run (equal
/// fingerprint: the same query over the same targets, so one execution serves both, each answered under its
/// own request id) or *supersedes* it (different fingerprint: the old run is cancelled at once, every
/// request attached to it is answered `superseded` by the new request id, and a new run starts). As with
/// `.task(id:)`, the new run starts at once: it does not wait for the superseded run's task to unwind (that
/// task is cancelled, and whatever it returns is ignored).
///
/// **Terminal once, by construction.** A request is answered by removing it from the registry, and every
/// transition that removes requests returns them: ``finished(_:)`` those that get the run's outcome, the
/// others (``TaskAnswer``) with the ``Interruption`` that ended them; nothing else produces answers. A run that is
/// cancelled (superseded, cancelled, expired, shut down, revoked) is removed together with its requests at
/// that moment, so when its task finally returns, ``finished(_:)`` finds no such run and returns
/// nothing. Run ids are never reused, so the late return cannot hit a newer run of the same task.
///
/// **Duplicates.** A request whose `requestId` is already attached (Kafka redelivered it, or a producer
/// retried it) is answered once: ``receive(_:nowMs:)`` returns ``ReceiveAction/duplicate(of:)``, the
/// duplicate gets no answer of its own, and the worker marks its message done at once. That is safe for
/// at-least-once: the first copy's offset is still undone, so it is read again after a crash. A duplicate of
/// a request that was already answered and forgotten is not recognised (that would take memory for all of
/// history) and is run and answered again; outcome consumers deduplicate by request id.
///
/// **Deadlines** are milliseconds since the Unix epoch, and "now" is passed in. A request already past its
/// deadline is answered `expired` without a run. It still supersedes its task's run when its fingerprint
/// differs (the client's newest request replaced the older one even if it cannot run itself), but leaves a
/// run with an equal fingerprint alone. While running, each request expires on its own deadline
/// (``expireDue(nowMs:)``); a shared run is cancelled only when no request is left on it.
///
/// Cancel messages that name a task with no run are forgotten (remembering them would be unbounded).
///
/// `Fingerprint` needs only `==`: ``WorkFingerprint`` (equal targets and query) in the worker.
struct TaskRegistry<Fingerprint: Equatable & Sendable>: Sendable {
    /// A request as the registry needs it: identity, supersession key, query identity, message position.
    struct Request: Equatable, Sendable {
        var requestId: String
        /// Supersession key (the contract defaults it to the request id).
        var taskId: String
        /// Identifies the query and its targets: equal fingerprints on one task share a run.
        var fingerprint: Fingerprint
        var position: MessagePosition
        /// Milliseconds since the Unix epoch; `nil` for no deadline.
        var deadlineMs: Int64?

        init(requestId: String, taskId: String, fingerprint: Fingerprint, position: MessagePosition, deadlineMs: Int64? = nil) {
            self.requestId = requestId
            self.taskId = taskId
            self.fingerprint = fingerprint
            self.position = position
            self.deadlineMs = deadlineMs
        }

        var attached: AttachedRequest {
            AttachedRequest(requestId: requestId, taskId: taskId, position: position, deadlineMs: deadlineMs)
        }
    }

    enum ReceiveAction: Hashable, Sendable {
        /// No run for the task: start this one for the request's query.
        case start(RunID)
        /// The task's run had another query: cancel its runs and publish its answers (all `superseded` by
        /// this request), then start the new run.
        case supersede(TaskCancellation, start: RunID)
        /// The task's run is the same query: the request is attached to it and answered when it finishes.
        case share(RunID)
        /// The request id is already attached (to `of`): no answer of its own; mark its message done now.
        case duplicate(of: AttachedRequest)
        /// The request is answered at once without a run: `expired` on arrival, or `cancelled` (shutdown)
        /// after ``cancelForShutdown()``. An expired request may still supersede its task's run.
        case answerWithoutRun(TaskAnswer, cancelling: TaskCancellation)
    }

    private struct Run: Sendable {
        let id: RunID
        let taskId: String
        let fingerprint: Fingerprint
        /// In arrival order; never empty while the run is live.
        var requests: [AttachedRequest]
    }

    private var runs: [RunID: Run] = [:]
    private var runByTask: [String: RunID] = [:]
    private var runByRequest: [String: RunID] = [:]
    private var lastRunNumber: UInt64 = 0
    /// Set by ``cancelForShutdown()``: later requests are answered `cancelled` without a run.
    private var isShutDown = false

    init() {}

    /// The requests on `run` now, in arrival order; empty once it finished. Progress events go to each.
    func requests(of run: RunID) -> [AttachedRequest] { runs[run]?.requests ?? [] }

    // MARK: Transitions

    /// A request message arrived (in partition order). See the type's documentation for each outcome.
    mutating func receive(_ request: Request, nowMs: Int64) -> ReceiveAction {
        if let runID = runByRequest[request.requestId],
            let existing = runs[runID]?.requests.first(where: { $0.requestId == request.requestId })
        {
            return .duplicate(of: existing)
        }
        let attached = request.attached
        if isShutDown {
            return .answerWithoutRun(TaskAnswer(attached, .cancelled(.shutdown)), cancelling: .none)
        }
        let current = runByTask[request.taskId].flatMap { runs[$0] }
        if current?.fingerprint == request.fingerprint, let current {
            if attached.isExpired(atMs: nowMs) {
                return .answerWithoutRun(TaskAnswer(attached, .expired), cancelling: .none)
            }
            runs[current.id]?.requests.append(attached)
            runByRequest[request.requestId] = current.id
            return .share(current.id)
        }
        var superseded = TaskCancellation.none
        if let current {
            superseded = remove(current.id) { TaskAnswer($0, .superseded(by: request.requestId)) }
        }
        if attached.isExpired(atMs: nowMs) {
            return .answerWithoutRun(TaskAnswer(attached, .expired), cancelling: superseded)
        }
        lastRunNumber += 1
        let id = RunID(lastRunNumber)
        runs[id] = Run(id: id, taskId: request.taskId, fingerprint: request.fingerprint, requests: [attached])
        runByTask[request.taskId] = id
        runByRequest[request.requestId] = id
        return current == nil ? .start(id) : .supersede(superseded, start: id)
    }

    /// The run's task returned. Returns the requests it answers (with its outcome, each under its own request
    /// id), in arrival order. Empty when the run was already cancelled (its requests were answered then) or
    /// finished before.
    mutating func finished(_ run: RunID) -> [AttachedRequest] {
        take(run)?.requests ?? []
    }

    /// A cancel message for `taskId`: its run (if any) is cancelled and its requests answered `cancelled`.
    mutating func cancel(taskId: String) -> TaskCancellation {
        guard let run = runByTask[taskId] else { return .none }
        return remove(run) { TaskAnswer($0, .cancelled(.requested)) }
    }

    /// The run's deadline passed while it ran: it is cancelled and every request on it answered `expired`.
    /// Prefer ``expireDue(nowMs:)``, which honours each shared request's own deadline.
    mutating func expire(_ run: RunID) -> TaskCancellation {
        remove(run) { TaskAnswer($0, .expired) }
    }

    /// Answers `expired` every attached request whose deadline is at or before `nowMs`; runs left with no
    /// request are cancelled, shared runs with requests left go on. Call when ``nextDeadlineMs`` passes.
    mutating func expireDue(nowMs: Int64) -> TaskCancellation {
        detach(where: { $0.isExpired(atMs: nowMs) }) { TaskAnswer($0, .expired) }
    }

    /// The partitions are being taken from this worker: their requests are answered `cancelled`
    /// (``CancelReason/partitionRevoked``), and runs left with no request are cancelled. A shared run that
    /// still serves requests from partitions kept goes on. (For lost partitions the answers are dropped: the
    /// partition's next owner runs the requests and answers them.)
    mutating func cancel(partitions: Set<KafkaTopicPartition>) -> TaskCancellation {
        detach(where: { partitions.contains($0.position.partition) }) { TaskAnswer($0, .cancelled(.partitionRevoked)) }
    }

    /// Graceful shutdown: every run is cancelled and every request answered `cancelled`
    /// (``CancelReason/shutdown``), once; requests received afterwards are answered the same way at once.
    mutating func cancelForShutdown() -> TaskCancellation {
        isShutDown = true
        return detach(where: { _ in true }) { TaskAnswer($0, .cancelled(.shutdown)) }
    }

    // MARK: Queries

    /// The earliest deadline among attached requests: when to call ``expireDue(nowMs:)`` next.
    var nextDeadlineMs: Int64? {
        runs.values.lazy.flatMap(\.requests).compactMap(\.deadlineMs).min()
    }

    /// Live runs: what graceful shutdown waits to reach zero.
    var runCount: Int { runs.count }

    // MARK: Removal: the only places answers come from

    /// Removes a live run and all its requests, answering each with `answer`. Empty for an unknown run.
    private mutating func remove(_ id: RunID, answer: (AttachedRequest) -> TaskAnswer) -> TaskCancellation {
        guard let run = take(id) else { return .none }
        return TaskCancellation(runs: [id], answers: run.requests.map(answer))
    }

    /// Forgets a live run and its requests.
    private mutating func take(_ id: RunID) -> Run? {
        guard let run = runs.removeValue(forKey: id) else { return nil }
        if runByTask[run.taskId] == id { runByTask[run.taskId] = nil }
        for request in run.requests { runByRequest[request.requestId] = nil }
        return run
    }

    /// Removes the requests that match from every live run (oldest run first), answering each; runs left
    /// empty are removed and named for cancellation.
    private mutating func detach(
        where matches: (AttachedRequest) -> Bool,
        answer: (AttachedRequest) -> TaskAnswer
    ) -> TaskCancellation {
        var result = TaskCancellation()
        for id in runs.keys.sorted() {
            guard var run = runs[id], run.requests.contains(where: matches) else { continue }
            let kept = run.requests.filter { !matches($0) }
            if kept.isEmpty {
                let removed = remove(id, answer: answer)
                result.runs += removed.runs
                result.answers += removed.answers
            } else {
                for request in run.requests where matches(request) {
                    runByRequest[request.requestId] = nil
                    result.answers.append(answer(request))
                }
                run.requests = kept
                runs[id] = run
            }
        }
        return result
    }
}

extension TaskRegistry.Request: Hashable where Fingerprint: Hashable {}
