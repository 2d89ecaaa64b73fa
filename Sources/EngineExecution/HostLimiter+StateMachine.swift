import DequeModule

extension HostLimiter {
    /// The per-host request limit as a value: who may send now, who waits, and who is woken when a request
    /// finishes. No I/O and no continuations here, so it is tested on its own; ``HostLimiter`` holds it under a
    /// lock and resumes the waiters it names.
    package struct StateMachine {
        package enum AcquireAction: Equatable {
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

            /// Takes a slot when one is free. Waiters exist only while every slot is taken (a release hands its
            /// slot to the first waiter), so a free slot never overtakes one.
            mutating func takeFreeSlot(limit: Int) -> Bool {
                guard active < limit else { return false }
                active += 1
                return true
            }

            /// A slot when one is free, else a place at the end of the queue.
            mutating func admit(_ waiter: UInt64, limit: Int) -> AcquireAction {
                if takeFreeSlot(limit: limit) { return .proceed }
                waiters.append(waiter)
                return .wait
            }
        }

        package let limit: Int
        private var hosts: [String: HostState] = [:]
        /// Waiters whose cancellation arrived before their acquire did (the two race).
        private var cancelledEarly: Set<UInt64> = []

        package init(limit: Int) { self.limit = max(1, limit) }

        // The host's state is changed in place (`hosts[host, default:]`, `hosts.values[index]`): a copy taken out
        // and stored back costs a second lookup, and copies the waiter queue when it grows.

        package mutating func acquire(host: String, waiter: UInt64) -> AcquireAction {
            if !cancelledEarly.isEmpty, cancelledEarly.remove(waiter) != nil { return .cancelled }
            let limit = limit
            return hosts[host, default: HostState()].admit(waiter, limit: limit)
        }

        /// Takes a free slot of `host` for a caller not yet numbered as a waiter; false when every slot is taken
        /// (then the caller waits through ``acquire(host:waiter:)``).
        package mutating func acquireIfFree(host: String) -> Bool {
            let limit = limit
            return hosts[host, default: HostState()].takeFreeSlot(limit: limit)
        }

        /// A request to `host` finished. Returns the waiter that now holds its slot, if any (the slot passes to
        /// it directly, so a newcomer cannot overtake waiters).
        package mutating func release(host: String) -> UInt64? {
            guard let index = hosts.index(forKey: host) else { return nil }
            if let next = hosts.values[index].waiters.popFirst() { return next }
            hosts.values[index].active -= 1
            if hosts.values[index].active == 0 { hosts.remove(at: index) }
            return nil
        }

        /// The waiter's task was cancelled. True when it was waiting (the caller fails it); false when it holds
        /// a slot already or has not arrived yet (then its acquire will see the cancellation).
        package mutating func cancel(host: String, waiter: UInt64) -> Bool {
            guard let index = hosts.index(forKey: host), let position = hosts.values[index].waiters.firstIndex(of: waiter) else {
                return false
            }
            hosts.values[index].waiters.remove(at: position)
            return true
        }

        /// Records a cancellation that came before the acquire.
        package mutating func cancelBeforeArrival(waiter: UInt64) {
            cancelledEarly.insert(waiter)
        }
    }
}
