/// Flow control for requests: pause consuming when `maxInFlight` requests are received and not yet done,
/// resume when they drop to the low mark. Counting *received, not done* (rather than running) bounds the
/// memory held for requests however fast they arrive, including answers waiting for delivery reports.
///
/// The two marks give hysteresis: without a gap between them the consumer would pause and resume on every
/// request near the limit. Each edge is reported once (`.pause` only while running, `.resume` only while
/// paused), so the caller can pass actions straight to the consumer.
///
/// The bound is not exact: messages already in the consumer's read-ahead when it pauses still arrive and are
/// counted, so in-flight may exceed `maxInFlight` by up to the read-ahead.
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

    /// A request was received.
    mutating func admitted(_ count: Int = 1) -> Action {
        update(inFlight: inFlight + max(0, count))
    }

    /// A request is done (its outcome delivered, or it needs none). Never goes below zero.
    mutating func completed(_ count: Int = 1) -> Action {
        update(inFlight: inFlight - max(0, count))
    }

    /// Sets the in-flight count outright, e.g. from ``AssignmentOffsetTracker/inFlight`` after a revocation
    /// dropped a partition's requests. Driving the gate from that one count keeps the two from drifting.
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
