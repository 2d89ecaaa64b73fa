import Synchronization

/// The bytes one request's result may hold, shared by every layer of the request while pages arrive.
///
/// Engines reserve what they keep (feature bytes as they will be published, ids) before keeping it; a
/// reservation that does not fit is refused, the engine stops fetching and answers what it holds, marked
/// incomplete. So no request makes a worker hold more than the budget, whatever its `maxFeatures` says.
/// Pages in flight are not counted: they are bounded by the engine's page concurrency and page size.
///
/// It also carries the request's ``ProgressSink``: the budget is the one per-request object every page loop of
/// every engine already holds, so reporting pages needs no new parameter through the seam.
package final class ResultBudget: Sendable {
    /// The budget in bytes.
    package let limit: Int
    /// Who hears of the pages read, when the request asked for progress (`progress: true`); else `nil`.
    package let progress: (any ProgressSink)?
    /// Where large layers go instead of the result, when the request may store them (``ResultStore``); else
    /// `nil`, and engines collect as they always did. What a writer streams is not reserved here: its memory is
    /// the writer's parts in flight, so a stored layer is bounded by the store's pace, not by this budget.
    package let store: (any ResultStore)?
    private let state: Mutex<State>

    private struct State {
        var used = 0
        var refused = false
    }

    package init(limit: Int, progress: (any ProgressSink)? = nil, store: (any ResultStore)? = nil) {
        self.limit = max(0, limit)
        self.progress = progress
        self.store = store
        self.state = Mutex(State())
    }

    /// A budget nothing exhausts: for callers that bound results themselves (benchmarks, tools).
    package static func unlimited() -> ResultBudget { ResultBudget(limit: .max) }

    /// Takes `bytes` if they all fit; false (taking nothing, and marking the budget spent) when they do not.
    package func reserve(_ bytes: Int) -> Bool {
        state.withLock { state in
            guard !state.refused, bytes <= limit - state.used else {
                state.refused = true
                return false
            }
            state.used += max(0, bytes)
            return true
        }
    }

    /// Takes as many whole `unit`-byte items as fit, up to `count`, and returns how many. Fewer than
    /// `count` marks the budget spent.
    package func reserve(count: Int, unit: Int) -> Int {
        state.withLock { state in
            let room = state.refused ? 0 : (limit - state.used) / max(1, unit)
            let taken = min(max(0, count), room)
            state.used += taken * max(1, unit)
            if taken < count { state.refused = true }
            return taken
        }
    }

    /// Bytes reserved so far.
    package var used: Int { state.withLock { $0.used } }

    /// Whether a reservation was refused: the request's result is cut.
    package var isSpent: Bool { state.withLock { $0.refused } }
}
