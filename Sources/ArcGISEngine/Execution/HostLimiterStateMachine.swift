import DequeModule

/// The per-host request limit as a value: who may send now, who waits, and who is woken when a request
/// finishes. No I/O and no continuations here, so it is tested on its own; ``HostLimiter`` holds it under a
/// lock and resumes the waiters it names.
struct HostLimiterStateMachine {
    enum AcquireAction: Equatable {
        /// A slot was free: send now.
        case proceed
        /// Every slot is taken: wait until ``release(host:)`` names this waiter.
        case wait
        /// The waiter was cancelled before it arrived: fail at once.
        case cancelled
    }

    private struct HostState {
        var active = 0
        var waiters: Deque<UInt64> = []
    }

    let limit: Int
    private var hosts: [String: HostState] = [:]
    /// Waiters whose cancellation arrived before their acquire did (the two race).
    private var cancelledEarly: Set<UInt64> = []

    init(limit: Int) { self.limit = max(1, limit) }

    mutating func acquire(host: String, waiter: UInt64) -> AcquireAction {
        if cancelledEarly.remove(waiter) != nil { return .cancelled }
        var state = hosts[host, default: HostState()]
        defer { hosts[host] = state }
        if state.active < limit {
            state.active += 1
            return .proceed
        }
        state.waiters.append(waiter)
        return .wait
    }

    /// A request to `host` finished. Returns the waiter that now holds its slot, if any (the slot passes to
    /// it directly, so a newcomer cannot overtake waiters).
    mutating func release(host: String) -> UInt64? {
        guard var state = hosts[host] else { return nil }
        if let next = state.waiters.popFirst() {
            hosts[host] = state
            return next
        }
        state.active -= 1
        hosts[host] = state.active == 0 ? nil : state
        return nil
    }

    /// The waiter's task was cancelled. True when it was waiting (the caller fails it); false when it holds
    /// a slot already or has not arrived yet (then its acquire will see the cancellation).
    mutating func cancel(host: String, waiter: UInt64) -> Bool {
        if var state = hosts[host], let index = state.waiters.firstIndex(of: waiter) {
            state.waiters.remove(at: index)
            hosts[host] = state
            return true
        }
        return false
    }

    /// Records a cancellation that came before the acquire.
    mutating func cancelBeforeArrival(waiter: UInt64) {
        cancelledEarly.insert(waiter)
    }

    func activeRequests(host: String) -> Int { hosts[host]?.active ?? 0 }
    func waitingRequests(host: String) -> Int { hosts[host]?.waiters.count ?? 0 }
}
