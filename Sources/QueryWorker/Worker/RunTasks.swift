import Synchronization

/// The runs' tasks while they live. Each run is one unstructured task (on the worker's task executor), not a
/// child of the message loop's group that in turn creates and awaits the run's task: a run must be cancellable
/// alone (a supersession aborts its transfers), which a group's child is not, and one task per run costs one
/// creation, one start and one completion instead of two of each (the wrapper child was 3.6 % of the worker's
/// CPU per `count` request in the profile, more with its hops).
///
/// What the group gave, this keeps: a run is cancelled with the worker's own task (``cancelAll()``, from the
/// message loop's cancellation handler and at its end), and the message loop returns only after the last run
/// ended (``waitUntilNoneLive()``), so no run outlives the worker's service.
final class RunTasks: Sendable {
    private struct State {
        var tasks: [RunID: Task<Void, Never>] = [:]
        /// Runs whose task ended before ``start(_:executor:_:)`` registered it.
        var endedEarly: Set<RunID> = []
        var live = 0
        /// After ``cancelAll()``: a run started later is cancelled at once.
        var cancelled = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Starts the run's task; it runs `operation` on `executor` (the global pool when nil).
    func start(
        _ run: RunID, executor: (any TaskExecutor)?, _ operation: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        state.withLock { $0.live += 1 }
        let task = Task(executorPreference: executor) {
            await operation()
            self.ended(run)
        }
        let cancel = state.withLock { state -> Bool in
            guard state.endedEarly.remove(run) == nil else { return false }
            state.tasks[run] = task
            return state.cancelled
        }
        if cancel { task.cancel() }
        return task
    }

    /// Cancels every live run, and every run started from now on.
    func cancelAll() {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            state.cancelled = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
    }

    /// Returns once no run's task is live. Not ended by cancellation: the caller waits for runs it cancelled.
    func waitUntilNoneLive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let none = state.withLock { state -> Bool in
                guard state.live > 0 else { return true }
                state.waiters.append(continuation)
                return false
            }
            if none { continuation.resume() }
        }
    }

    /// How many runs' tasks are live (tests).
    var live: Int { state.withLock { $0.live } }

    /// How many runs are held for cancellation, and ended early ones remembered (tests): both empty once no
    /// run is live, whichever came first for each run, its end or its registration.
    var registered: Int { state.withLock { $0.tasks.count + $0.endedEarly.count } }

    private func ended(_ run: RunID) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.tasks.removeValue(forKey: run) == nil { state.endedEarly.insert(run) }
            state.live -= 1
            guard state.live == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
