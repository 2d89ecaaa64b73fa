import Synchronization

/// Bounds the requests in flight to each host across all queries of one engine.
///
/// Waiting is cancellable: a cancelled query leaves the queue at once and never takes a slot.
package final class HostLimiter: Sendable {
    private struct State {
        var machine: StateMachine
        /// Every waiter numbered and not yet resumed or cancelled, in one dictionary (one lookup per step of
        /// a wait, where a dictionary of continuations and two sets took two or three).
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// Where a numbered waiter is.
    ///
    /// The continuation is unsafe (not checked) because the discipline that makes it resumed exactly once is
    /// this type's own and simple: it is stored here only, and resumed by whoever removes it under the lock
    /// (a release handing over a slot, or the waiter's cancellation), or at once when it is never stored.
    private enum Waiter {
        /// Numbered, not yet seen by the state machine.
        case pending
        /// Queued in the state machine.
        case arrived(UnsafeContinuation<Void, any Error>)
    }

    private let state: Mutex<State>

    package init(limit: Int) {
        state = Mutex(State(machine: StateMachine(limit: limit)))
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
            state.waiters[state.nextWaiter] = .pending
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
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let action = state.withLock { state in
                    let action = state.machine.acquire(host: host, waiter: waiter)
                    if action == .wait {
                        state.waiters[waiter] = .arrived(continuation)
                    } else {
                        state.waiters[waiter] = nil
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
            let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
                switch state.waiters[waiter] {
                case .pending?:
                    state.waiters[waiter] = nil
                    state.machine.cancelBeforeArrival(waiter: waiter)
                    return nil
                case .arrived(let continuation)?:
                    guard state.machine.cancel(host: host, waiter: waiter) else { return nil }
                    state.waiters[waiter] = nil
                    return continuation
                case nil:
                    return nil
                }
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    package func release(host: String) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard let next = state.machine.release(host: host) else { return nil }
            guard case .arrived(let continuation)? = state.waiters.removeValue(forKey: next) else { return nil }
            return continuation
        }
        continuation?.resume()
    }
}
