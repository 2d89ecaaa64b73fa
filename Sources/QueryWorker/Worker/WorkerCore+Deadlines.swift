import FeatureQuerySupport
import Synchronization

extension WorkerCore {
    /// Expires requests whose deadline passes while they run: answered `expired`, their runs cancelled (and
    /// so their HTTP transfers aborted) once no request is left on them.
    ///
    /// One loop for the whole worker instead of a timer per request: every request carries a deadline (its
    /// own, or `requestTimeout`), and one sleeping task serves them all, however many are in flight. The loop wakes at the earliest deadline, and at least every 100 ms to see
    /// deadlines of requests received since; a deadline is met within about 5 ms. The answers are published
    /// by child tasks, so a slow delivery does not hold the next deadline back.
    func deadlineLoop() async {
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled {
                let now = WallClock.nowMilliseconds()
                perform(transition { $0.expireDue(nowMs: now) }, in: &group)
                let next = state.withLock { $0.nextDeadlineMs }
                let wait = min(max((next ?? Int64.max) - WallClock.nowMilliseconds(), 5), 100)
                do { try await Task.sleep(for: .milliseconds(wait)) } catch { return }
            }
        }
    }
}
