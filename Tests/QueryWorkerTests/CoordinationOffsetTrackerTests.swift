import FeatureQuerySupport
import Kafka
import Testing

@testable import QueryWorker

private let p0 = KafkaTopicPartition(topic: "feature-queries", partition: 0)
private let p1 = KafkaTopicPartition(topic: "feature-queries", partition: 1)

@Suite("Coordination: PartitionOffsetTracker")
struct CoordinationOffsetTrackerTests {
    @Test func theCommitAdvancesOnlyOverAContiguousDonePrefix() {
        var tracker = PartitionOffsetTracker()
        let accepted = (Int64(0)...4).map { tracker.received($0) }
        #expect(accepted.allSatisfy { $0 })
        #expect(tracker.done(2) == nil)
        #expect(tracker.committableOffset == nil)
        #expect(tracker.done(0) == 1)
        #expect(tracker.done(1) == 3)
        #expect(tracker.done(4) == nil)
        #expect(tracker.committableOffset == 3)
        #expect(tracker.oldestUndoneOffset == 3)
        #expect(tracker.done(3) == 5)
        #expect(tracker.committableOffset == 5 && tracker.inFlight == 0)
        #expect(tracker.receivedCount == 5 && tracker.doneCount == 5)
    }

    @Test func gapsInOffsetsDoNotHoldTheCommitBack() {
        var tracker = PartitionOffsetTracker()
        for offset: Int64 in [5, 7, 10] { tracker.received(offset) }
        // 6 never reached a consumer (compacted away): consuming may go on from 7.
        #expect(tracker.done(5) == 7)
        #expect(tracker.done(10) == nil)
        #expect(tracker.done(7) == 11)
        tracker.received(20)
        #expect(tracker.committableOffset == 11)
        #expect(tracker.done(20) == 21)
    }

    @Test func unknownAndRepeatedDonesAreIgnored() {
        var tracker = PartitionOffsetTracker()
        tracker.received(1)
        tracker.received(2)
        #expect(tracker.done(0) == nil)
        #expect(tracker.done(3) == nil)
        #expect(tracker.done(1) == 2)
        #expect(tracker.done(1) == nil)
        #expect(tracker.doneCount == 1 && tracker.inFlight == 1)
        #expect(tracker.isInFlight(2) && !tracker.isInFlight(1))
    }

    @Test func offsetsThatDoNotIncreaseAreIgnored() {
        var tracker = PartitionOffsetTracker()
        let accepted = [tracker.received(10), tracker.received(10), tracker.received(3)]
        #expect(accepted == [true, false, false])
        #expect(tracker.receivedCount == 1 && tracker.lastReceivedOffset == 10)
        #expect(tracker.done(10) == 11)
    }

    @Test func memoryIsBoundedByWhatIsUndone() {
        var tracker = PartitionOffsetTracker()
        for offset in Int64(0)..<10_000 { tracker.received(offset) }
        for offset in Int64(1)..<10_000 { #expect(tracker.done(offset) == nil) }
        // One slow request holds the commit back, but only it is kept.
        #expect(tracker.inFlight == 1)
        #expect(tracker.done(0) == 10_000)
    }

    /// Random gaps, receives interleaved with dones in random order: the committable offset never passes an
    /// undone offset, never goes back, moves exactly when the oldest undone message is done, and ends one
    /// past the last offset. Checked against an independent array model.
    @Test(arguments: 0..<20)
    func randomDoneOrdersNeverCommitPastAnUndoneOffset(seed: Int) {
        var rng = SplitMix64.scrambled(seed: UInt64(seed) &+ 1000)
        let count = 5000
        var offsets: [Int64] = []
        var next = Int64.random(in: 0..<1000, using: &rng)
        for _ in 0..<count {
            offsets.append(next)
            next += Int.random(in: 0..<4, using: &rng) == 0 ? Int64.random(in: 2...5, using: &rng) : 1
        }
        var tracker = PartitionOffsetTracker()
        var isDone = [Bool](repeating: false, count: count)
        var receivedCount = 0
        var undoneIndices: [Int] = []  // received and not done, unordered
        var front = 0  // index of the oldest undone received message (the model's commit point)
        var lastCommitted: Int64?

        while front < count {
            let receive = receivedCount < count && (undoneIndices.isEmpty || Int.random(in: 0..<3, using: &rng) != 0)
            if receive {
                let accepted = tracker.received(offsets[receivedCount])
                #expect(accepted)
                undoneIndices.append(receivedCount)
                receivedCount += 1
            } else {
                let pick = Int.random(in: 0..<undoneIndices.count, using: &rng)
                undoneIndices.swapAt(pick, undoneIndices.count - 1)
                let index = undoneIndices.removeLast()
                isDone[index] = true
                let result = tracker.done(offsets[index])
                let frontMoved = index == front
                while front < receivedCount, isDone[front] { front += 1 }
                if frontMoved {
                    let expected = front < receivedCount ? offsets[front] : offsets[receivedCount - 1] + 1
                    #expect(result == expected)
                    if let lastCommitted, let result { #expect(result > lastCommitted) }
                    lastCommitted = result
                } else {
                    #expect(result == nil)
                }
            }
            if let committed = tracker.committableOffset, front < receivedCount {
                #expect(committed <= offsets[front], "committed \(committed) past undone \(offsets[front])")
            }
            #expect(tracker.committableOffset == lastCommitted)
            #expect(tracker.inFlight == undoneIndices.count)
            #expect(tracker.oldestUndoneOffset == (front < receivedCount ? offsets[front] : nil))
        }
        #expect(tracker.committableOffset == (offsets.last ?? 0) + 1)
        #expect(tracker.receivedCount == count && tracker.doneCount == count && tracker.inFlight == 0)
    }

    @Test(arguments: 0..<5)
    func everyPermutationOfDonesEndsOnePastTheLastOffset(seed: Int) {
        var rng = SplitMix64.scrambled(seed: UInt64(seed) &+ 2000)
        var tracker = PartitionOffsetTracker()
        let offsets = (Int64(0)..<20_000).map { $0 * 2 }
        for offset in offsets { tracker.received(offset) }
        var maxCommitted: Int64 = 0
        var undone = Set(offsets)
        for offset in offsets.shuffled(using: &rng) {
            undone.remove(offset)
            if let committed = tracker.done(offset) {
                #expect(committed > maxCommitted)
                maxCommitted = committed
            }
        }
        #expect(undone.isEmpty)
        #expect(maxCommitted == 39_999)
        #expect(tracker.committableOffset == 39_999)
    }
}

@Suite("Coordination: AssignmentOffsetTracker")
struct CoordinationAssignmentOffsetTrackerTests {
    @Test func partitionsAreTrackedIndependently() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([p0, p1])
        let accepted = [
            offsets.received(MessagePosition(p0, offset: 0)),
            offsets.received(MessagePosition(p0, offset: 1)),
            offsets.received(MessagePosition(p1, offset: 7)),
        ]
        #expect(accepted == [true, true, true])
        #expect(offsets.inFlight == 3)
        #expect(offsets.done(MessagePosition(p0, offset: 1)) == nil)
        #expect(offsets.done(MessagePosition(p1, offset: 7)) == 8)
        #expect(offsets.done(MessagePosition(p0, offset: 0)) == 2)
        #expect(offsets.committableOffsets == [p0: 2, p1: 8])
        #expect(offsets.inFlight == 0)
        #expect(offsets.lifetimeCounters[p0] == .init(received: 2, done: 2))
    }

    @Test func messagesOfUnassignedPartitionsAreIgnored() {
        var offsets = AssignmentOffsetTracker()
        let accepted = offsets.received(MessagePosition(p0, offset: 0))
        #expect(!accepted)
        #expect(offsets.done(MessagePosition(p0, offset: 0)) == nil)
        #expect(offsets[p0] == nil && !offsets.isAssigned(p0))
        #expect(offsets.lifetimeCounters.isEmpty)
    }

    @Test func revokingMidwayDropsThePartitionAndItsLateDones() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([p0, p1])
        for offset in Int64(0)..<4 {
            offsets.received(MessagePosition(p0, offset: offset))
            offsets.received(MessagePosition(p1, offset: offset))
        }
        #expect(offsets.done(MessagePosition(p0, offset: 0)) == 1)
        let removed = offsets.revoke([p0])
        #expect(removed[p0]?.inFlight == 3 && removed[p0]?.committableOffset == 1)
        #expect(offsets.inFlight == 4)
        // Late dones and read-ahead of the revoked partition change nothing.
        #expect(offsets.done(MessagePosition(p0, offset: 1)) == nil)
        let lateReadAhead = offsets.received(MessagePosition(p0, offset: 4))
        #expect(!lateReadAhead)
        #expect(offsets.done(MessagePosition(p1, offset: 0)) == 1)

        // Given back later: it starts over from the committed offset with a fresh tracker.
        offsets.assign([p0])
        #expect(offsets[p0]?.committableOffset == nil && offsets[p0]?.inFlight == 0)
        let reread = offsets.received(MessagePosition(p0, offset: 1))
        #expect(reread)
        #expect(offsets.done(MessagePosition(p0, offset: 1)) == 2)
        #expect(offsets.lifetimeCounters[p0] == .init(received: 5, done: 2))
    }

    @Test func assigningAnAssignedPartitionKeepsItsUndoneOffsets() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([p0])
        offsets.received(MessagePosition(p0, offset: 5))
        offsets.received(MessagePosition(p0, offset: 6))
        offsets.assign([p0, p1])
        #expect(offsets.done(MessagePosition(p0, offset: 6)) == nil)
        #expect(offsets.done(MessagePosition(p0, offset: 5)) == 7)
    }

    @Test func revokeAllEmptiesTheAssignment() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([p0, p1])
        offsets.received(MessagePosition(p1, offset: 3))
        let removed = offsets.revokeAll()
        #expect(Set(removed.keys) == [p0, p1])
        #expect(offsets.partitions.isEmpty && offsets.inFlight == 0)
    }
}

extension PartitionOffsetTracker {
    /// The lowest offset still undone: what holds the commit back.
    var oldestUndoneOffset: Int64? { undone.first }

    /// Whether an offset was received and is not done.
    func isInFlight(_ offset: Int64) -> Bool { undone.contains(offset) }
}

extension AssignmentOffsetTracker {
    /// Every partition taken away, as shutdown leaves them; returns the trackers removed.
    mutating func revokeAll() -> [KafkaTopicPartition: PartitionOffsetTracker] {
        revoke(Array(partitions.keys))
    }

    /// The committable offset of every assigned partition that has one.
    var committableOffsets: [KafkaTopicPartition: Int64] {
        partitions.compactMapValues(\.committableOffset)
    }
}
