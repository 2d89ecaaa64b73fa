import Synchronization
import Testing

@testable import QueryWorker

/// The runs' own tasks stand in for what the message loop's group gave them: cancellation with the worker and
/// a wait for the last one. Runs here wait on a gate the test opens, so no timing decides an outcome.
@Suite("Worker: run tasks")
struct RunTasksTests {
    /// A gate a run waits at until the test opens it (or the run is cancelled).
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

    @Test func theWaitReturnsOnlyOnceTheLastRunEnded() async {
        let runs = RunTasks()
        let gate = Gate()
        let finished = Atomic<Int>(0)
        for id in 1...3 {
            _ = runs.start(RunID(UInt64(id)), executor: nil) {
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

    @Test func cancelAllCancelsLiveRunsAndEveryLaterOne() async {
        let runs = RunTasks()
        let sawCancellation = Atomic<Int>(0)
        let started = Gate()
        let running = runs.start(RunID(1), executor: nil) {
            started.open()
            // Ends only by cancellation.
            while !Task.isCancelled { await Task.yield() }
            sawCancellation.add(1, ordering: .relaxed)
        }
        await started.wait()
        runs.cancelAll()
        await running.value
        let later = runs.start(RunID(2), executor: nil) {
            if Task.isCancelled { sawCancellation.add(1, ordering: .relaxed) }
        }
        await later.value
        await runs.waitUntilNoneLive()
        #expect(sawCancellation.load(ordering: .relaxed) == 2)
        #expect(later.isCancelled)
    }

    @Test func aRunThatEndsBeforeItIsRegisteredIsNotKeptForCancellation() async {
        let runs = RunTasks()
        for id in 1...200 {
            // Most of these end before start(...) registers them, on another thread of the pool.
            _ = runs.start(RunID(UInt64(id)), executor: nil) {}
        }
        await runs.waitUntilNoneLive()
        #expect(runs.live == 0)
        #expect(runs.registered == 0)
    }
}
