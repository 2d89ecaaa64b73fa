@testable import Kafka
import Testing

/// The consumer's state machine on its own: no librdkafka, no threads. `Int` stands in for the waiter.
@Suite("KafkaConsumerCore.StateMachine: read-ahead, waiter and pauses, as a value")
struct KafkaConsumerCoreStateMachineTests {
    typealias Machine = KafkaConsumerCore.StateMachine<Int>
    let p0 = KafkaTopicPartition(topic: "t", partition: 0)
    let p1 = KafkaTopicPartition(topic: "t", partition: 1)

    func messages(_ partition: Int32, _ offsets: Range<Int64>) -> [KafkaConsumerMessage] {
        offsets.map { KafkaConsumerMessage(topic: "t", partition: partition, offset: $0) }
    }

    @Test func waitingReaderGetsTheBatchDirectly() {
        var machine = Machine(capacity: 10)
        guard case .suspend = machine.next() else { Issue.record("expected suspend"); return }
        let suspended7 = machine.suspend(7)
        #expect(suspended7)
        let action = machine.received(messages(0, 0..<3))
        #expect(action.resume?.0 == 7)
        #expect(action.resume?.1.map(\.offset) == [0, 1, 2])
        #expect(machine.batches.isEmpty)
    }

    @Test func interruptingAWaitingReaderHandsItsWaiterBack() {
        var machine = Machine(capacity: 10)
        let suspended7 = machine.suspend(7)
        #expect(suspended7)
        let interrupted = machine.interruptReader()
        #expect(interrupted == 7)
        let none = machine.interruptReader()
        #expect(none == nil)  // given back once; this one marks the next wait
        let suspended8 = machine.suspend(8)
        #expect(!suspended8)  // the interruption that found no waiter ends the next wait at once
        let suspended9 = machine.suspend(9)
        #expect(suspended9)  // and only that one
        let resumed = machine.received(messages(0, 0..<2)).resume?.0
        #expect(resumed == 9)
    }

    @Test func fullReadAheadStopsThePollerUntilTheReaderDrainsHalf() {
        var machine = Machine(capacity: 6)
        _ = machine.assigned([p0, p1])
        #expect(machine.received(messages(0, 0..<3)).pollerMustWait == false)
        let full = machine.received(messages(1, 0..<3))
        #expect(full.pollerMustWait)
        #expect(full.resume == nil)
        #expect(!machine.hasRoom)
        // No partition is paused in librdkafka for flow control: that would discard its prefetch.
        #expect(!machine.isPaused(p0) && !machine.isPaused(p1))
        guard case .deliver(let first, let wake) = machine.next() else { Issue.record("expected deliver"); return }
        #expect(first.map(\.offset) == [0, 1, 2])  // whole batches, in order
        #expect(wake)  // 3 left: down to the low watermark (half the capacity)
        #expect(machine.hasRoom)
        guard case .deliver(_, let wakeAgain) = machine.next() else { Issue.record("expected deliver"); return }
        #expect(!wakeAgain)  // the poller was woken once
    }

    @Test func callerPauseIsReportedOnce() {
        var machine = Machine(capacity: 10)
        _ = machine.assigned([p0, p1])
        #expect(machine.pause([p0]).pause == [p0])
        #expect(machine.pause([p0]).isEmpty)
        #expect(machine.isPaused(p0))
        #expect(machine.resume([p0]).resume == [p0])
        #expect(machine.resume([p0]).isEmpty)
    }

    @Test func pauseAllCoversPartitionsAssignedLater() {
        var machine = Machine(capacity: 10)
        _ = machine.assigned([p0])
        #expect(machine.pauseAll().pause == [p0])
        #expect(machine.assigned([p1]) == [p1])
        #expect(machine.resumeAll().resume == [p0, p1])
    }

    @Test func revocationDropsBufferedMessagesOfRevokedPartitionsOnly() {
        var machine = Machine(capacity: 100)
        _ = machine.assigned([p0, p1])
        _ = machine.received(messages(0, 0..<3) + messages(1, 0..<2))
        _ = machine.revoked([p0])
        #expect(machine.batches.flatMap { $0 }.map(\.partition) == [1, 1])
        #expect(machine.bufferedCount == 2)
        #expect(!machine.stillAssigned(KafkaConsumerMessage(topic: "t", partition: 0, offset: 0)))
        #expect(machine.stillAssigned(KafkaConsumerMessage(topic: "t", partition: 1, offset: 0)))
    }

    @Test func revocationForgetsPauseMarks() {
        var machine = Machine(capacity: 10)
        _ = machine.assigned([p0])
        _ = machine.pause([p0])
        _ = machine.revoked([p0])
        #expect(machine.assigned([p0]).isEmpty)  // re-assigned fresh, not paused
    }

    @Test func finishResumesTheWaiterAndEndsTheSequence() {
        var machine = Machine(capacity: 10)
        let suspended3 = machine.suspend(3)
        #expect(suspended3)
        #expect(machine.finish(nil) == 3)
        guard case .finish(nil) = machine.next() else { Issue.record("expected finish"); return }
        let suspended4 = machine.suspend(4)
        #expect(!suspended4)
        #expect(machine.received(messages(0, 0..<1)).resume == nil)
    }

    @Test func finishWithErrorIsReported() {
        var machine = Machine(capacity: 10)
        _ = machine.finish(KafkaError(code: .fatal, message: "boom", isFatal: true))
        guard case .finish(let error?) = machine.next() else { Issue.record("expected error"); return }
        #expect(error.code == .fatal)
    }

    @Test func bufferedMessagesAreDeliveredBeforeTheEnd() {
        var machine = Machine(capacity: 10)
        _ = machine.received(messages(0, 0..<2))
        // finish drops the buffer: the partitions were revoked on close, the next owner reads them.
        _ = machine.finish(nil)
        guard case .finish = machine.next() else { Issue.record("expected finish"); return }
    }

    @Test func cancelledWaiterIsHandedBackOnce() {
        var machine = Machine(capacity: 10)
        let suspended9 = machine.suspend(9)
        #expect(suspended9)
        #expect(machine.cancelWaiter() == 9)
        #expect(machine.cancelWaiter() == nil)
    }
}
