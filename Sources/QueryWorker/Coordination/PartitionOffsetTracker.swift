import DequeModule

/// Which offset of one partition may be stored: the worker commits only past messages that are done, so a
/// crash or rebalance re-reads whatever was not (at-least-once), while requests still finish in any order.
///
/// A message is *done* when nothing more is owed for it: its outcome's delivery report came back (a result,
/// an error, an answer given for a shared or superseded request), or it needs no outcome (a cancel message,
/// a duplicate). The committable offset is the smallest offset received and not done, or one past the last
/// received when all are done: the "next offset to consume" that Kafka stores. With consecutive offsets that
/// is the last contiguous done offset + 1. Offsets may have gaps (compacted topics, transaction markers):
/// offsets never received do not hold the commit back, since they never reach a consumer.
///
/// Only undone offsets are kept, in a sorted deque (they arrive in increasing order), so memory is
/// O(in-flight) however long the partition runs and however far one slow request lags behind the rest.
/// `done` finds its offset by binary search; removal from the middle moves at most the shorter side, and
/// done messages are mostly near the front.
///
/// Call ``received(_:)`` for every message you will call ``done(_:)`` for, malformed ones included (then
/// mark them done at once): a message never received is treated as a gap and may be committed past.
struct PartitionOffsetTracker: Sendable, Hashable {
    /// Received and not done, ascending.
    private(set) var undone: Deque<Int64> = []
    /// The highest offset received; `nil` before the first.
    private(set) var lastReceivedOffset: Int64?
    /// The offset to store: every received offset below it is done. `nil` until the first done message at
    /// the front (nothing to store yet).
    private(set) var committableOffset: Int64?
    /// Messages received since assignment.
    private(set) var receivedCount = 0
    /// Messages done since assignment.
    private(set) var doneCount = 0
    /// The group's committed offset as this owner knows it: where it started (its first message's offset)
    /// until the coordinator confirms a commit of ours. `nil` before the first message.
    private(set) var committedOffset: Int64?

    init() {}

    /// Messages received and not yet done.
    var inFlight: Int { undone.count }

    /// Where the partition's next owner should start: the committable offset, or before anything is done, the
    /// first offset received (where this owner started). Never above an offset not done, never below what
    /// this owner committed. `nil` before the first message.
    var resumeOffset: Int64? { committableOffset ?? undone.first }

    /// Undone messages whose outcome is already in the producer's queue, waiting only for its delivery report.
    private var handedOff: Set<Int64> = []

    /// Messages received and not yet handed to the producer: requests running or being answered, what the
    /// in-flight gate bounds. (Outcomes in the producer's queue are bounded by the producer's own limits.)
    var active: Int { undone.count - handedOff.count }

    /// The message's outcome is in the producer's queue; it stays undone until ``done(_:)``.
    mutating func handedOff(_ offset: Int64) {
        guard indexOfUndone(offset) != nil else { return }
        handedOff.insert(offset)
    }

    /// A message was read. Offsets must increase; a repeated or lower offset (a re-read after a seek) is
    /// ignored and returns `false`: revoke and assign the partition to start over from a seek.
    @discardableResult
    mutating func received(_ offset: Int64) -> Bool {
        if let lastReceivedOffset, offset <= lastReceivedOffset { return false }
        lastReceivedOffset = offset
        if committedOffset == nil { committedOffset = offset }
        undone.append(offset)
        receivedCount += 1
        return true
    }

    /// A message is done (in any order). Returns the new committable offset when this moved it forward,
    /// `nil` otherwise (an earlier message is still undone, or the offset was not in flight: never received,
    /// done before, or received before a reset).
    mutating func done(_ offset: Int64) -> Int64? {
        guard let index = indexOfUndone(offset) else { return nil }
        undone.remove(at: index)
        if !handedOff.isEmpty { handedOff.remove(offset) }
        doneCount += 1
        guard index == 0 else { return nil }
        // The front was done: everything below the next undone offset (or past the last received) is done.
        let next = undone.first ?? ((lastReceivedOffset ?? offset) + 1)
        committableOffset = next
        return next
    }

    /// The coordinator confirmed a commit of `offset` (the next offset to read) for this partition.
    mutating func committed(_ offset: Int64) {
        committedOffset = max(committedOffset ?? offset, offset)
    }

    /// Messages past the committed offset whose outcome this owner has published or queued: the partition's
    /// next owner reads them again and answers them a second time if the partition goes now without a commit.
    /// An upper bound: offsets never received (gaps, transaction markers) count as answered, and so do messages
    /// done without an outcome (a cancel message).
    ///
    /// Why: at-least-once repeats are expected when a coordinator refuses commits or a partition is lost, and
    /// an operator (and the crash-loop test) can then tell those repeats from any the worker should not make.
    var answeredPastCommit: Int {
        guard let committedOffset, let lastReceivedOffset, lastReceivedOffset >= committedOffset else { return 0 }
        let pastCommit = Int(lastReceivedOffset - committedOffset) + 1
        return max(0, pastCommit - undone.count + handedOff.count)
    }

    private func indexOfUndone(_ offset: Int64) -> Int? {
        var low = 0
        var high = undone.count
        while low < high {
            let middle = (low + high) / 2
            if undone[middle] < offset { low = middle + 1 } else { high = middle }
        }
        return low < undone.count && undone[low] == offset ? low : nil
    }
}
