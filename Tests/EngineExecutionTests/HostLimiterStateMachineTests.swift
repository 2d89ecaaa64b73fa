import FeatureQuerySupport
import EngineExecution
import Testing

/// The per-host limit's decisions without tasks or continuations: who sends now, who waits, who a release
/// wakes, and what a cancellation takes back.
@Suite("HostLimiter.StateMachine: per-host slots, as a value")
struct HostLimiterStateMachineTests {
    @Test func slotsPassToWaitersInOrder() {
        var machine = HostLimiter.StateMachine(limit: 2)
        let r1 = machine.acquire(host: "a", waiter: 1)
        #expect(r1 == .proceed)
        let r2 = machine.acquire(host: "a", waiter: 2)
        #expect(r2 == .proceed)
        let r3 = machine.acquire(host: "a", waiter: 3)
        #expect(r3 == .wait)
        let r4 = machine.acquire(host: "a", waiter: 4)
        #expect(r4 == .wait)
        let r5 = machine.acquire(host: "b", waiter: 5)
        #expect(r5 == .proceed)
        let r6 = machine.release(host: "a")
        #expect(r6 == 3)
        #expect(machine.activeRequests(host: "a") == 2)
        let r7 = machine.release(host: "a")
        #expect(r7 == 4)
        let r8 = machine.release(host: "a")
        #expect(r8 == nil)
        let r9 = machine.release(host: "a")
        #expect(r9 == nil)
        #expect(machine.activeRequests(host: "a") == 0)
    }

    @Test func cancelledWaitersLeaveTheQueue() {
        var machine = HostLimiter.StateMachine(limit: 1)
        let r10 = machine.acquire(host: "a", waiter: 1)
        #expect(r10 == .proceed)
        let r11 = machine.acquire(host: "a", waiter: 2)
        #expect(r11 == .wait)
        let r12 = machine.cancel(host: "a", waiter: 2)
        #expect(r12)
        #expect(machine.waitingRequests(host: "a") == 0)
        let r13 = machine.release(host: "a")
        #expect(r13 == nil)
        let r14 = machine.cancel(host: "a", waiter: 1)
        #expect(!r14)
    }

    @Test func aCancellationBeforeArrivalFailsTheAcquire() {
        var machine = HostLimiter.StateMachine(limit: 1)
        machine.cancelBeforeArrival(waiter: 7)
        let r15 = machine.acquire(host: "a", waiter: 7)
        #expect(r15 == .cancelled)
        #expect(machine.activeRequests(host: "a") == 0)
    }

    @Test("A free slot is taken at once; a full host queues; slots never overtake waiters")
    func freeSlots() {
        var machine = HostLimiter.StateMachine(limit: 2)
        // Results in constants first: `#expect` cannot call a mutating method.
        let first = machine.acquireIfFree(host: "a")
        let second = machine.acquireIfFree(host: "a")
        let third = machine.acquireIfFree(host: "a")
        #expect(first && second && !third)
        let queued = machine.acquire(host: "a", waiter: 1)
        #expect(queued == .wait)
        let handedOver = machine.release(host: "a")
        #expect(handedOver == 1)  // the slot passes to the waiter
        let afterHandOver = machine.acquireIfFree(host: "a")
        #expect(!afterHandOver)
        let freed = machine.release(host: "a")
        #expect(freed == nil)
        let again = machine.acquireIfFree(host: "a")
        #expect(again)
        #expect(machine.activeRequests(host: "a") == 2)
        let otherHost = machine.acquireIfFree(host: "b")
        #expect(otherHost)
    }

    @Test("The state machine follows a plain model over random operations")
    func followsAModel() {
        var random = SplitMix64(seed: 22)
        var machine = HostLimiter.StateMachine(limit: 3)
        var model: [String: (active: Int, waiters: [UInt64])] = [:]
        var nextWaiter: UInt64 = 0
        for _ in 0..<20_000 {
            let host = ["a", "b", "c"][Int(random.next() % 3)]
            var state = model[host] ?? (0, [])
            switch random.next() % 4 {
            case 0:
                let free = machine.acquireIfFree(host: host)
                let expected = state.active < 3
                #expect(free == expected)
                if free { state.active += 1 }
            case 1:
                nextWaiter += 1
                let action = machine.acquire(host: host, waiter: nextWaiter)
                if state.active < 3 {
                    #expect(action == .proceed)
                    state.active += 1
                } else {
                    #expect(action == .wait)
                    state.waiters.append(nextWaiter)
                }
            case 2:
                guard state.active > 0 else { continue }
                let next = machine.release(host: host)
                if state.waiters.isEmpty {
                    #expect(next == nil)
                    state.active -= 1
                } else {
                    let first = state.waiters.removeFirst()
                    #expect(next == first)
                }
            default:
                guard let waiter = state.waiters.randomElement(using: &random) else { continue }
                let cancelled = machine.cancel(host: host, waiter: waiter)
                #expect(cancelled)
                state.waiters.removeAll { $0 == waiter }
            }
            model[host] = state.active == 0 && state.waiters.isEmpty ? nil : state
            #expect(machine.activeRequests(host: host) == state.active)
            #expect(machine.waitingRequests(host: host) == state.waiters.count)
        }
    }
}

extension HostLimiter.StateMachine {
    /// The slots of `host` in use, read through the machine's own events on a copy (it is a value): the
    /// limit less the free slots the copy can still take.
    func activeRequests(host: String) -> Int {
        var probe = self
        var free = 0
        while probe.acquireIfFree(host: host) { free += 1 }
        return limit - free
    }

    /// The waiters of `host`, read on a copy: each release hands its slot to the next waiter, until none is
    /// left.
    func waitingRequests(host: String) -> Int {
        var probe = self
        var waiting = 0
        while probe.release(host: host) != nil { waiting += 1 }
        return waiting
    }
}
