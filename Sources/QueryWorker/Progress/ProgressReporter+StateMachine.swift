extension ProgressReporter {
    /// The throttle of one run's progress events: at most one event per ``intervalMs``, the newest counts
    /// carried by the next event rather than an event per page, and nothing once the run has finished.
    ///
    /// A value type that returns what to do (emit now, schedule a timer, drop), so the reporter does the I/O
    /// outside its lock and the rules are tested without clocks or Kafka. Times are milliseconds of a
    /// monotonic clock.
    struct StateMachine: Sendable, Equatable {
        enum State: Sendable, Equatable {
            /// No event is due; `lastEmitMs` is when the last one went (`nil`: none yet, so the first page is
            /// reported at once).
            case quiet(lastEmitMs: Int64?)
            /// A timer is set for `dueMs`: changes until then ride on its event.
            case waiting(dueMs: Int64)
            /// The run has finished (its outcome is on its way): no event any more.
            case finished
        }

        enum Action: Sendable, Equatable {
            /// Make an event of the counts now and publish it.
            case emit
            /// Set a timer that calls ``timerFired(nowMs:)`` after this many milliseconds.
            case schedule(afterMs: Int64)
            /// Nothing to do: a timer is set already, or the run has finished.
            case drop
        }

        /// The least time between two events of the run.
        let intervalMs: Int64
        private(set) var state = State.quiet(lastEmitMs: nil)

        init(intervalMs: Int64) {
            self.intervalMs = max(0, intervalMs)
        }

        /// Something changed (a page was read, a layer finished).
        mutating func changed(nowMs: Int64) -> Action {
            switch state {
            case .quiet(let last):
                guard let last, nowMs - last < intervalMs else {
                    state = .quiet(lastEmitMs: nowMs)
                    return .emit
                }
                let due = last + intervalMs
                state = .waiting(dueMs: due)
                return .schedule(afterMs: due - nowMs)
            case .waiting, .finished:
                return .drop
            }
        }

        /// The timer set by a ``Action/schedule(afterMs:)`` went off.
        mutating func timerFired(nowMs: Int64) -> Action {
            guard case .waiting = state else { return .drop }
            state = .quiet(lastEmitMs: nowMs)
            return .emit
        }

        /// The run finished: returns whether a timer is set (to be cancelled). Nothing is emitted afterwards,
        /// so no event follows the outcome.
        mutating func finish() -> Bool {
            defer { state = .finished }
            if case .waiting = state { return true }
            return false
        }
    }
}
