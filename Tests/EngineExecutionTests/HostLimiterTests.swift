import EngineExecution
import Testing

/// The per-host request limiter with its tasks: a cancelled acquire takes no slot, a release wakes a waiter, and
/// the admit-then-wait path the engines take holds its slot until released. (Its decisions as a value are
/// ``HostLimiterStateMachineTests``.)
@Suite("HostLimiter: slots taken, waited for and given back")
struct HostLimiterTests {
    @Test("A cancelled task takes no slot, free or not; a release wakes a waiter")
    func hostLimiterCancellation() async throws {
        let limiter = HostLimiter(limit: 1)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await limiter.acquire(host: "h")
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(await limiter.hasFreeSlot(host: "h"))

        try await limiter.acquire(host: "h")
        let waiting = Task { try await limiter.withSlot(host: "h") { 42 } }
        // Whether the waiter queued behind the held slot or comes after the release, it gets a slot.
        try await Task.sleep(for: .milliseconds(5))
        limiter.release(host: "h")
        #expect(try await waiting.value == 42)
        #expect(await limiter.hasFreeSlot(host: "h"))
    }

    @Test("A slot admitted at once, or waited for with the admitted number, is held until released")
    func hostLimiterAdmitAndWait() async throws {
        let limiter = HostLimiter(limit: 1)
        #expect(try limiter.admit(host: "h") == nil)
        let waiter = try #require(try limiter.admit(host: "h"))
        let waiting = Task {
            try await limiter.wait(host: "h", waiter: waiter)
            return 1
        }
        limiter.release(host: "h")
        #expect(try await waiting.value == 1)
        #expect(await !limiter.hasFreeSlot(host: "h"))
        limiter.release(host: "h")
        #expect(await limiter.hasFreeSlot(host: "h"))
    }
}

extension HostLimiter {
    /// Whether a new request to `host` takes a slot at once (it then gives it back): false when it has to
    /// wait, which a slot leaked by a cancelled request would make it do.
    func hasFreeSlot(host: String) async -> Bool {
        let probe = Task { try await acquire(host: host) }
        let deadline = Task {
            try await Task.sleep(for: .seconds(2))
            probe.cancel()
        }
        defer { deadline.cancel() }
        do {
            try await probe.value
            release(host: host)
            return true
        } catch {
            return false
        }
    }
}
