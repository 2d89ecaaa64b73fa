/// Flow control for requests: pause consuming when `maxInFlight` requests are received and their outcomes
/// not yet handed to the producer, resume when they drop to the low mark. The count (the offset tracker's
/// ``AssignmentOffsetTracker/active``) covers requests running or being answered, so the memory they hold stays
/// bounded however fast they arrive. An outcome already in the producer's queue leaves it: librdkafka bounds
/// that queue, and holding a slot until the delivery report would cap throughput at `maxInFlight` per
/// delivery round trip. (Its offset still waits for the report.)
///
/// The two marks give hysteresis: without a gap between them the consumer would pause and resume on every
/// request near the limit. Each edge is reported once (`.pause` only while running, `.resume` only while
/// paused), so the caller can pass actions straight to the consumer.
///
/// The bound holds exactly: the count never exceeds `maxInFlight`. Pausing the consumer's partitions only
/// stops fetching; messages it read ahead before the pause would still be delivered, so the worker also holds
/// its message loop while the gate is paused (`WorkerCore.waitWhilePaused()`) and takes nothing more until
/// the gate resumes. The read-ahead waits in the consumer's buffer meanwhile, uncounted (the messages of a
/// partition revoked in between are dropped from it and read again by the next owner).
///
/// The pause lasts across rebalances: the consumer sets every newly assigned partition's pause flag
/// explicitly (paused while the worker's `pauseAll` from the gate's `.pause` holds, resumed otherwise), so
/// partitions assigned during a pause start paused, and a resume is never lost on a partition that was
/// revoked and assigned again meanwhile (librdkafka would otherwise keep that partition's old flag).
struct InFlightGate: Sendable, Hashable {
    enum Action: Hashable, Sendable {
        case none
        /// Stop fetching: the limit was reached.
        case pause
        /// Fetch again: in-flight dropped to the low mark.
        case resume
    }

    let maxInFlight: Int
    /// Resume when in-flight is at or below this.
    let lowMark: Int
    private(set) var inFlight = 0
    private(set) var isPaused = false

    /// - Parameters:
    ///   - maxInFlight: pause at this many requests in flight; at least 1.
    ///   - lowMark: resume at or below this; defaults to three quarters of `maxInFlight`, and is clamped to
    ///     `0..<maxInFlight` so that a resume is always reachable and always follows a pause.
    init(maxInFlight: Int, lowMark: Int? = nil) {
        self.maxInFlight = max(1, maxInFlight)
        let requested = lowMark ?? (self.maxInFlight * 3 / 4)
        self.lowMark = min(max(0, requested), self.maxInFlight - 1)
    }

    /// Sets the count outright, from ``AssignmentOffsetTracker/active`` (also after a revocation dropped a
    /// partition's requests). Driving the gate from that one count keeps the two from drifting.
    mutating func update(inFlight newValue: Int) -> Action {
        inFlight = max(0, newValue)
        if !isPaused, inFlight >= maxInFlight {
            isPaused = true
            return .pause
        }
        if isPaused, inFlight <= lowMark {
            isPaused = false
            return .resume
        }
        return .none
    }
}
