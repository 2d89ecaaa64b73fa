import Synchronization

/// The runs while they live, executed by long-lived *runner* tasks (on the worker's task executor), one run
/// at a time each.
///
/// Why runners and not a task per run: a run's async call chain (worker, router, engine, session, transport,
/// HTTP client) is some twenty frames deep, and a new task's allocator takes a fresh 1 KB slab from `malloc`
/// for each frame that does not fit the last one, then frees them all when the task ends: about twenty
/// `malloc`/`free` pairs per `count` request, besides the task's own creation, scheduling and destruction. A
/// runner keeps its slabs from one run to the next, and handing it a run is one continuation's resumption.
///
/// Why not a child of the message loop's group: a run must be cancellable alone (a supersession aborts its
/// transfers), which a group's child is not. Task cancellation cannot be undone, so cancelling a run
/// (``RunHandle/cancel()``) cancels its runner's task and that runner *retires* after the run; a new runner
/// takes its place when a run needs one. Runs end far more often than they are cancelled, so most runs reuse
/// a runner.
///
/// What the group gave, this keeps: a run is cancelled with the worker's own task (``cancelAll()``, from the
/// message loop's cancellation handler and at its end), and the message loop returns only after the last run
/// ended and every runner retired (``waitUntilNoneLive()``), so no run outlives the worker's service.
final class RunTasks: Sendable {
    typealias Operation = @Sendable () async -> Void

    /// One runner task, as the pool sees it.
    private struct Runner {
        let task: Task<Void, Never>
        /// The run it executes, or was handed and is about to; nil while idle.
        var run: RunID?
        /// A new runner's first run, until its task takes it (not captured by the task, which would keep the
        /// run's captures as long as the runner lives).
        var first: Operation?
        /// While idle: what its task waits on for the next run (resumed with nil: retire).
        var waiter: UnsafeContinuation<Operation?, Never>?
        /// Its task was cancelled: it takes no run after the current one.
        var retiring: Bool
    }

    /// Runners live in slots of an array, a retired runner's slot taken by the next new one, and the runs'
    /// runners are found through a dictionary changed only by `updateValue` and `removeValue`: an element
    /// changed in place through a dictionary's subscript (`runners[id]?.run = run`) goes through a `modify`
    /// coroutine whose frame here is `malloc`'d, two of them per run.
    private struct State {
        var runners: [Runner?] = []
        /// Slots of retired runners, for the next new one.
        var vacant: [Int] = []
        /// Idle runners, the most recently idle last (its slabs are the likeliest still in cache).
        var idle: [Int] = []
        /// The runner of each live run.
        var runnerOf: [RunID: Int] = [:]
        var live = 0
        var runnerCount = 0
        /// After ``cancelAll()``: a run started later is cancelled at once, and no runner waits idle.
        var cancelled = false
        var waiters: [CheckedContinuation<Void, Never>] = []

        /// The waiters to resume now: no run is live and, after ``cancelAll()``, no runner is left.
        mutating func waitersDone() -> [CheckedContinuation<Void, Never>] {
            guard live == 0, !cancelled || runnerCount == 0 else { return [] }
            defer { waiters.removeAll() }
            return waiters
        }

        /// A slot for a new runner.
        mutating func slot() -> Int {
            runnerCount += 1
            if let slot = vacant.popLast() { return slot }
            runners.append(nil)
            return runners.count - 1
        }

        /// The runner in `slot` retired.
        mutating func vacate(_ slot: Int) {
            runners[slot] = nil
            vacant.append(slot)
            runnerCount -= 1
        }
    }

    private let state = Mutex(State())
    /// Where runner tasks run (the global pool when nil); unstructured tasks do not inherit a preference.
    private let executor: (any TaskExecutor)?
    /// How many idle runners are kept after a burst; a runner that ends a run beyond them retires. Each keeps
    /// the slabs its deepest run needed (some 20 KB).
    let idleLimit: Int

    init(executor: (any TaskExecutor)? = nil, idleLimit: Int = 64) {
        self.executor = executor
        self.idleLimit = idleLimit
    }

    /// Starts `operation` as `run` on an idle runner, or on a new one. The handle cancels it alone.
    func start(_ run: RunID, _ operation: @escaping Operation) -> RunHandle {
        enum Start {
            case handedOver(UnsafeContinuation<Operation?, Never>)
            case newRunner(Task<Void, Never>, cancel: Bool)
        }
        let start = state.withLock { state -> Start in
            state.live += 1
            if !state.cancelled, let id = state.idle.popLast(), let waiter = state.runners[id]?.waiter {
                state.runners[id]?.waiter = nil
                state.runners[id]?.run = run
                state.runnerOf.updateValue(id, forKey: run)
                return .handedOver(waiter)
            }
            let id = state.slot()
            // Made under the lock so that it is registered before its first run can end; making a task runs
            // none of it here.
            let task = Task(executorPreference: executor) { await self.serve(id) }
            state.runners[id] = Runner(task: task, run: run, first: operation, waiter: nil, retiring: state.cancelled)
            state.runnerOf.updateValue(id, forKey: run)
            return .newRunner(task, cancel: state.cancelled)
        }
        switch start {
        case .handedOver(let waiter):
            waiter.resume(returning: operation)
        case .newRunner(let task, let cancel):
            if cancel { task.cancel() }
        }
        return RunHandle(run: run, tasks: self)
    }

    /// Cancels `run` if it is still live: its runner's task is cancelled, and the runner retires after it. A
    /// run that already ended is not looked for further: its runner may be executing another run by now.
    func cancel(_ run: RunID) {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard let id = state.runnerOf[run], let runner = state.runners[id], runner.run == run, !runner.retiring else {
                return nil
            }
            state.runners[id]?.retiring = true
            return runner.task
        }
        task?.cancel()
    }

    /// Cancels every live run, and every run started from now on; idle runners retire.
    func cancelAll() {
        let (tasks, idle, done) = state.withLock { state in
            state.cancelled = true
            var tasks: [Task<Void, Never>] = []
            var idle: [UnsafeContinuation<Operation?, Never>] = []
            for id in state.runners.indices {
                guard let runner = state.runners[id] else { continue }
                if let waiter = runner.waiter {
                    idle.append(waiter)
                    state.vacate(id)
                } else if !runner.retiring {
                    state.runners[id]?.retiring = true
                    tasks.append(runner.task)
                }
            }
            state.idle.removeAll()
            return (tasks, idle, state.waitersDone())
        }
        for waiter in idle { waiter.resume(returning: nil) }
        for task in tasks { task.cancel() }
        for waiter in done { waiter.resume() }
    }

    /// Returns once no run is live and, after ``cancelAll()``, every runner retired. Not ended by
    /// cancellation: the caller waits for runs it cancelled.
    func waitUntilNoneLive() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state in
                state.waiters.append(continuation)
                return state.waitersDone()
            }
            for waiter in done { waiter.resume() }
        }
    }

    /// How many runs are live (tests).
    var live: Int { state.withLock { $0.live } }

    /// How many runs are held for cancellation (tests): none once no run is live.
    var registered: Int { state.withLock { $0.runnerOf.count } }

    /// How many runners exist, busy or idle (tests).
    var runners: Int { state.withLock { $0.runnerCount } }

    // MARK: Runner

    /// A runner's life: its first run, then each run it is handed, until it retires.
    private func serve(_ id: Int) async {
        var operation = state.withLock { $0.runners[id]?.first.take() }
        repeat {
            await operation?()
            operation = nil  // the ended run's captures go now, not when the next run comes
            operation = await ended(id)
        } while operation != nil
    }

    /// The runner's run ended: it waits idle for the next run, or retires (cancelled, the worker stopping, or
    /// enough idle runners already).
    private func ended(_ id: Int) async -> Operation? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Operation?, Never>) in
            let (retire, done) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                if let run = state.runners[id]?.run {
                    state.runnerOf.removeValue(forKey: run)
                    state.live -= 1
                }
                state.runners[id]?.run = nil
                let retire = state.cancelled || state.runners[id]?.retiring != false || state.idle.count >= idleLimit
                if retire {
                    state.vacate(id)
                } else {
                    state.runners[id]?.waiter = continuation
                    state.idle.append(id)
                }
                return (retire, state.waitersDone())
            }
            if retire { continuation.resume(returning: nil) }
            for waiter in done { waiter.resume() }
        }
    }
}

/// A run as the state machine holds it: enough to cancel the run alone, whichever runner executes it.
struct RunHandle: Sendable, Equatable {
    let run: RunID
    let tasks: RunTasks

    func cancel() { tasks.cancel(run) }

    static func == (lhs: RunHandle, rhs: RunHandle) -> Bool {
        lhs.run == rhs.run && lhs.tasks === rhs.tasks
    }
}
