import Synchronization

/// How many tile pages may wait for the runner at once, when the runner may be slow (a stored collection whose
/// store is behind): a tile's task takes a credit before it hands over a page and waits while there is none, so
/// it follows no further `next` link meanwhile. The runner gives the credit back once it has taken the page.
///
/// Cancellation (the layer stopped, failed or was cancelled) lets every waiting task go at once.
final class PageCredits: Sendable {
    private struct State {
        var available: Int
        var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state: Mutex<State>

    /// `limit` pages may wait; nil: no limit (the runner keeps up).
    init(limit: Int?) { state = Mutex(State(available: limit.map { max(1, $0) } ?? .max)) }

    /// Takes a credit, waiting while there is none; returns at once when the task is cancelled.
    func acquire() async {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.available > 0 || Task.isCancelled {
                        state.available -= state.available > 0 ? 1 : 0
                        return true
                    }
                    state.waiting[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume()
        }
    }

    /// Gives a credit back: the longest-waiting task goes on, else the credit is kept.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let first = state.waiting.keys.min(), let waiter = state.waiting.removeValue(forKey: first) else {
                if state.available < .max { state.available += 1 }
                return nil
            }
            return waiter
        }
        next?.resume()
    }
}
