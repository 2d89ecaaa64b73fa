import Synchronization
import Testing

@testable import QueryWorker

/// Runs on long-lived runner tasks stand in for what the message loop's group gave them (cancellation with the
/// worker, a wait for the last one), and a run stays cancellable alone. Runs here wait on gates the test opens,
/// so no timing decides an outcome.
@Suite("Worker: run tasks")
struct RunTasksTests {
    /// A gate a run waits at until the test opens it.
    final class Gate: Sendable {
        private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

        func wait() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let open = state.withLock { state -> Bool in
                    if state.open { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if open { continuation.resume() }
            }
        }

        func open() {
            let waiters = state.withLock { state in
                state.open = true
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// What a run saw, by run number: the task it ran on and whether that task was cancelled.
    final class Sightings: Sendable {
        private let seen = Mutex<[Int: (task: Int, cancelled: Bool)]>([:])

        func record(_ run: Int) {
            let task = withUnsafeCurrentTask { $0?.hashValue } ?? 0
            seen.withLock { $0[run] = (task, Task.isCancelled) }
        }

        func task(_ run: Int) -> Int? { seen.withLock { $0[run]?.task } }
        func cancelled(_ run: Int) -> Bool? { seen.withLock { $0[run]?.cancelled } }
    }

    @Test func theWaitReturnsOnlyOnceTheLastRunEnded() async {
        let runs = RunTasks()
        let gate = Gate()
        let finished = Atomic<Int>(0)
        for id in 1...3 {
            _ = runs.start(RunID(UInt64(id))) {
                await gate.wait()
                finished.add(1, ordering: .relaxed)
            }
        }
        #expect(runs.live == 3)
        let waiting = Task { await runs.waitUntilNoneLive() ; return finished.load(ordering: .relaxed) }
        gate.open()
        #expect(await waiting.value == 3)
        #expect(runs.live == 0)
        await runs.waitUntilNoneLive()  // nothing live: returns at once
    }

    @Test func aRunAfterAnotherEndedReusesItsRunner() async {
        let runs = RunTasks()
        let seen = Sightings()
        _ = runs.start(RunID(1)) { seen.record(1) }
        await runs.waitUntilNoneLive()
        _ = runs.start(RunID(2)) { seen.record(2) }
        await runs.waitUntilNoneLive()
        #expect(runs.runners == 1)
        #expect(seen.task(1) != nil && seen.task(1) == seen.task(2), "the second run ran on the first run's task")
    }

    @Test func cancellingARunCancelsItAloneAndItsRunnerRetires() async {
        let runs = RunTasks()
        let seen = Sightings()
        let bothStarted = (Gate(), Gate())
        let gate = Gate()
        let first = runs.start(RunID(1)) {
            bothStarted.0.open()
            await gate.wait()
            seen.record(1)
        }
        _ = runs.start(RunID(2)) {
            bothStarted.1.open()
            await gate.wait()
            seen.record(2)
        }
        await bothStarted.0.wait()
        await bothStarted.1.wait()
        first.cancel()
        gate.open()
        await runs.waitUntilNoneLive()
        #expect(seen.cancelled(1) == true)
        #expect(seen.cancelled(2) == false)
        #expect(runs.runners == 1, "the cancelled run's runner retired")
        _ = runs.start(RunID(3)) { seen.record(3) }
        await runs.waitUntilNoneLive()
        #expect(seen.cancelled(3) == false, "a later run is not cancelled")
        #expect(seen.task(3) == seen.task(2))
    }

    @Test func aCancelAfterItsRunEndedDoesNotReachTheRunnersNextRun() async {
        let runs = RunTasks()
        let seen = Sightings()
        let ended = runs.start(RunID(1)) { seen.record(1) }
        await runs.waitUntilNoneLive()
        let started = Gate()
        let gate = Gate()
        _ = runs.start(RunID(2)) {
            started.open()
            await gate.wait()
            seen.record(2)
        }
        await started.wait()
        ended.cancel()
        gate.open()
        await runs.waitUntilNoneLive()
        #expect(seen.task(2) == seen.task(1), "run 2 took run 1's runner")
        #expect(seen.cancelled(2) == false)
    }

    @Test func cancelAllCancelsLiveRunsAndEveryLaterOneAndRetiresEveryRunner() async {
        let runs = RunTasks()
        let seen = Sightings()
        _ = runs.start(RunID(1)) {}
        await runs.waitUntilNoneLive()
        #expect(runs.runners == 1, "one idle runner")
        let started = Gate()
        _ = runs.start(RunID(2)) { seen.record(0) }  // takes the idle runner
        _ = runs.start(RunID(3)) {
            started.open()
            // Ends only by cancellation.
            while !Task.isCancelled { await Task.yield() }
            seen.record(3)
        }
        await started.wait()
        runs.cancelAll()
        _ = runs.start(RunID(4)) { seen.record(4) }
        await runs.waitUntilNoneLive()
        #expect(seen.cancelled(3) == true)
        #expect(seen.cancelled(4) == true)
        #expect(runs.runners == 0, "no runner is left once the worker's runs were cancelled")
        #expect(runs.live == 0)
    }

    @Test func idleRunnersBeyondTheLimitRetire() async {
        let runs = RunTasks(idleLimit: 2)
        let gate = Gate()
        let started = Atomic<Int>(0)
        let allStarted = Gate()
        for id in 1...5 {
            _ = runs.start(RunID(UInt64(id))) {
                if started.add(1, ordering: .relaxed).newValue == 5 { allStarted.open() }
                await gate.wait()
            }
        }
        await allStarted.wait()
        #expect(runs.runners == 5)
        gate.open()
        await runs.waitUntilNoneLive()
        #expect(runs.runners == 2)
    }

    @Test func manyShortRunsLeaveNothingRegistered() async {
        let runs = RunTasks()
        for id in 1...200 {
            // Most of these end on another thread of the pool while later ones start.
            _ = runs.start(RunID(UInt64(id))) {}
        }
        await runs.waitUntilNoneLive()
        #expect(runs.live == 0)
        #expect(runs.registered == 0)
        #expect(runs.runners <= runs.idleLimit)
    }
}
