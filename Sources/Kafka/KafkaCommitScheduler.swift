/// When a consumer commits its stored offsets on its own, between librdkafka's automatic commits: as soon as
/// the caller stores an offset, with at most one such commit in flight.
///
/// Why: librdkafka commits stored offsets every `auto.commit.interval.ms` (1 s). Whatever the worker answered
/// in the last interval is then uncommitted when it dies, and, worse, when a rebalance starts: a group
/// coordinator refuses commits while the group re-forms (librdkafka's mock for the whole join round), so a
/// second's answers are read again by the partitions' next owner and answered twice. Committing right after
/// each store narrows that window to one round trip. One commit in flight at a time bounds the commit rate
/// by the coordinator's latency, however many outcomes are delivered: a store made while a commit is on its
/// way is carried by the next one, sent when the first completes.
///
/// Value type, no I/O: ``KafkaConsumer`` keeps it under a lock and issues the commits it asks for.
struct KafkaCommitScheduler: Sendable, Hashable {
    enum State: Sendable, Hashable {
        /// No commit of ours in flight.
        case idle
        /// A commit is in flight; `again` when offsets were stored since it was sent.
        case committing(again: Bool)
    }

    private(set) var state = State.idle

    /// Offsets were stored. True when a commit is to be sent now.
    mutating func stored() -> Bool {
        switch state {
        case .idle:
            state = .committing(again: false)
            return true
        case .committing:
            state = .committing(again: true)
            return false
        }
    }

    /// A commit completed (ours, or librdkafka's automatic one: the callback does not say which, and either
    /// carried what was stored before it). True when another is to be sent now for what was stored since.
    mutating func completed() -> Bool {
        switch state {
        case .idle, .committing(again: false):
            state = .idle
            return false
        case .committing(again: true):
            state = .committing(again: false)
            return true
        }
    }
}
