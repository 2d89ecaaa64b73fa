import Synchronization

/// Bounds the requests in flight to each host across all queries of one engine.
///
/// Waiting is cancellable: a cancelled query leaves the queue at once and never takes a slot.
package final class HostLimiter: Sendable {
    private struct State {
        var machine: HostLimiterStateMachine
        var continuations: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        /// Waiters numbered but not yet seen by the state machine.
        var pending: Set<UInt64> = []
        /// Waiters queued in the state machine, not yet resumed or cancelled.
        var arrived: Set<UInt64> = []
        var nextWaiter: UInt64 = 0
    }

    private let state: Mutex<State>

    package init(limit: Int) {
        state = Mutex(State(machine: HostLimiterStateMachine(limit: limit)))
    }

    /// Runs `body` holding one of `host`'s slots.
    package func withSlot<T: Sendable>(host: String, _ body: () async throws -> T) async throws -> T {
        try await acquire(host: host)
        defer { release(host: host) }
        return try await body()
    }

    package func acquire(host: String) async throws {
        if let waiter = try admit(host: host) { try await wait(host: host, waiter: waiter) }
    }

    /// Takes a free slot of `host` at once (nil), or numbers the caller as a waiter (the number, which the
    /// caller passes to ``wait(host:waiter:)`` right away): ``acquire(host:)`` without an `async` call when a
    /// slot is free. Throws `CancellationError` for a cancelled task, which never takes a slot.
    package func admit(host: String) throws -> UInt64? {
        // A free slot, the common case, is taken under one lock without a continuation; otherwise the same lock
        // numbers the waiter. A cancelled task never takes a slot (as on the waiting path, where the
        // cancellation handler runs first).
        let admission = state.withLock { state -> Admission in
            if Task.isCancelled { return .cancelled }
            if state.machine.acquireIfFree(host: host) { return .admitted }
            state.nextWaiter += 1
            state.pending.insert(state.nextWaiter)
            return .wait(state.nextWaiter)
        }
        switch admission {
        case .admitted: return nil
        case .cancelled: throw CancellationError()
        case .wait(let waiter): return waiter
        }
    }


    private enum Admission {
        case admitted
        case cancelled
        case wait(UInt64)
    }

    /// Waits for a slot of `host` as `waiter`, the number ``admit(host:)`` gave (every slot was taken when the
    /// caller looked).
    package func wait(host: String, waiter: UInt64) async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let action = state.withLock { state in
                    state.pending.remove(waiter)
                    let action = state.machine.acquire(host: host, waiter: waiter)
                    if action == .wait {
                        state.continuations[waiter] = continuation
                        state.arrived.insert(waiter)
                    }
                    return action
                }
                switch action {
                case .proceed: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .wait: break
                }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard state.arrived.contains(waiter) else {
                    if state.pending.remove(waiter) != nil { state.machine.cancelBeforeArrival(waiter: waiter) }
                    return nil
                }
                guard state.machine.cancel(host: host, waiter: waiter) else { return nil }
                state.arrived.remove(waiter)
                return state.continuations.removeValue(forKey: waiter)
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    package func release(host: String) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard let next = state.machine.release(host: host) else { return nil }
            state.arrived.remove(next)
            return state.continuations.removeValue(forKey: next)
        }
        continuation?.resume()
    }
}
