import Testing

@testable import Kafka

/// The exactly-once publisher's rules without a cluster: what a transaction carries, what an abort keeps, and
/// what a revocation drops.
@Suite("KafkaTransactions.StateMachine: outcomes and offsets, as a value")
struct KafkaTransactionsStateMachineTests {
    let p0 = KafkaTopicPartition(topic: "requests", partition: 0)
    let p1 = KafkaTopicPartition(topic: "requests", partition: 1)

    func entry(_ id: UInt64, _ partition: KafkaTopicPartition) -> KafkaTransactions.StateMachine.Entry {
        .init(id: id, messages: [KafkaProducerMessage(topic: "results", value: Array("answer \(id)".utf8))], partition: partition)
    }

    /// An outcome appended, then (as the worker does between the two calls) the offset it completes stored.
    func answer(_ state: inout KafkaTransactions.StateMachine, _ id: UInt64, _ partition: KafkaTopicPartition, storing offset: Int64? = nil) {
        let appended = state.beginAppend(entry(id, partition))
        #expect(appended, "answer \(id) appended")
        if let offset { state.store([partition: offset]) }
        state.endAppend()
    }

    func state() -> KafkaTransactions.StateMachine {
        var state = KafkaTransactions.StateMachine()
        state.assign([p0, p1])
        return state
    }

    @Test func aTransactionCarriesTheAppendedOutcomesAndTheOffsetsStoredAfterThem() {
        var state = state()
        let appended = state.beginAppend(entry(1, p0))
        #expect(appended)
        state.store([p0: 11])
        state.endAppend()
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 1))
        #expect(state.sealed?.entries.map(\.id) == [1])
        #expect(state.sealed?.offsets == [p0: 11])
        let published = state.committedSealed()
        #expect(published == [1])
        // Committed offsets are not sent again; nothing left.
        let sealed2 = state.seal()
        #expect(sealed2 == .nothing)
        #expect(!state.hasUncommittedOffsets)
    }

    @Test func noSealWhileAnAppendHasNotStoredItsOffsetYet() {
        var state = state()
        let appended = state.beginAppend(entry(1, p0))
        #expect(appended)
        let sealed = state.seal()
        #expect(sealed == .appendsInProgress)
        state.endAppend()
        let sealed2 = state.seal()
        #expect(sealed2 == .transaction(number: 1))
    }

    @Test func outcomesAppendedDuringATransactionWaitForTheNextOne() {
        var state = state()
        answer(&state, 1, p0, storing: 11)
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 1))
        answer(&state, 2, p0, storing: 12)
        // One transaction at a time.
        let sealed2 = state.seal()
        #expect(sealed2 == .nothing)
        let published = state.committedSealed()
        #expect(published == [1])
        let sealed3 = state.seal()
        #expect(sealed3 == .transaction(number: 2))
        #expect(state.sealed?.offsets == [p0: 12])
    }

    @Test func anAbortedTransactionsOutcomesGoFirstInTheNextWithTheOffsetsStoredSince() {
        var state = state()
        answer(&state, 1, p0, storing: 11)
        _ = state.seal()
        answer(&state, 2, p1, storing: 21)
        let dropped = state.abortedSealed()
        #expect(dropped.isEmpty)
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 2))
        #expect(state.sealed?.entries.map(\.id) == [1, 2])
        #expect(state.sealed?.offsets == [p0: 11, p1: 21])
    }

    @Test func anAbortDuringARevocationDropsTheRevokedPartitionsOutcomesAndOffsets() {
        var state = state()
        _ = state.beginAppend(entry(1, p0))
        _ = state.beginAppend(entry(2, p1))
        state.store([p0: 11, p1: 21])
        state.endAppend()
        state.endAppend()
        state.beginRevoking([p0])
        _ = state.seal()
        let dropped = state.abortedSealed()
        #expect(dropped == [1])
        // The revoked partition's later answers are refused: they could not be committed by this member.
        let refused = state.beginAppend(entry(3, p0))
        #expect(!refused)
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 2))
        #expect(state.sealed?.entries.map(\.id) == [2])
        #expect(state.sealed?.offsets == [p1: 21])
    }

    @Test func droppedPartitionsLoseTheirPendingOutcomesAndOffsets() {
        var state = state()
        _ = state.beginAppend(entry(1, p0))
        _ = state.beginAppend(entry(2, p1))
        state.store([p0: 11, p1: 21])
        state.endAppend()
        state.endAppend()
        let dropped = state.drop([p0])
        #expect(dropped == [1])
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 1))
        #expect(state.sealed?.entries.map(\.id) == [2])
        #expect(state.sealed?.offsets == [p1: 21])
        // Offsets of a partition no longer owned are not taken.
        state.store([p0: 15])
        let published = state.committedSealed()
        #expect(published == [2])
        let sealed2 = state.seal()
        #expect(sealed2 == .nothing)
    }

    /// A partition lost while its transaction runs (an outage outlasting the session, say) and assigned again
    /// before the transaction ends: the member reads again from the last committed offset, so the transaction
    /// must not commit, and when it aborts its answers for that partition go (the re-read answers them once).
    @Test func aPartitionLostWhileItsTransactionRunsAbortsItAndItsAnswersGoEvenIfItComesBack() {
        var state = state()
        answer(&state, 1, p0, storing: 11)
        answer(&state, 2, p1, storing: 21)
        #expect(state.seal() == .transaction(number: 1))
        #expect(state.sealedPartitionsLeft == [])
        #expect(state.drop([p0]) == [], "sealed entries stay until the transaction ends")
        state.assign([p0])
        #expect(state.sealedPartitionsLeft == [p0], "the transaction must abort")
        answer(&state, 3, p0, storing: 11)
        let dropped = state.abortedSealed()
        #expect(dropped == [1], "the lost partition's answer goes, though the partition is back")
        #expect(state.sealedPartitionsLeft == nil)
        #expect(state.seal() == .transaction(number: 2))
        #expect(state.sealed?.entries.map(\.id) == [2, 3], "the kept answer first, then the re-read one")
        #expect(state.sealed?.offsets == [p0: 11, p1: 21])
    }

    /// A partition that left and came back while a transaction committed anyway (its commit was already
    /// under way): the commit's offset is not taken as this member's committed offset for the new ownership.
    @Test func aTransactionCommittedAfterItsPartitionLeftDoesNotCountItsOffsetForTheNewOwnership() {
        var state = state()
        answer(&state, 1, p0, storing: 11)
        #expect(state.seal() == .transaction(number: 1))
        _ = state.drop([p0])
        state.assign([p0])
        #expect(state.committedSealed() == [1])
        #expect(state.sealedPartitionsLeft == nil)
        state.store([p0: 11])
        #expect(state.seal() == .transaction(number: 2), "the re-read partition's offset is committed again")
        #expect(state.sealed?.offsets == [p0: 11])
    }

    @Test func offsetsNeverGoBack() {
        var state = state()
        state.store([p0: 20])
        state.store([p0: 12])
        let sealed = state.seal()
        #expect(sealed == .transaction(number: 1))
        #expect(state.sealed?.offsets == [p0: 20])
    }

    @Test func stoppingRefusesAppendsAndReturnsEverythingUncommitted() {
        var state = state()
        answer(&state, 1, p0)
        _ = state.seal()
        answer(&state, 2, p1)
        let left = state.stop()
        #expect(Set(left) == [1, 2])
        let refused = state.beginAppend(entry(3, p0))
        #expect(!refused)
    }

    @Test func aReplacedOutcomeKeepsItsPlace() {
        var state = state()
        _ = state.beginAppend(entry(1, p0))
        answer(&state, 2, p0)
        state.endAppend()
        _ = state.seal()
        let fallback = [KafkaProducerMessage(topic: "errors", value: Array("too large".utf8))]
        state.replaceSealedMessages(of: 1, with: fallback)
        #expect(state.sealed?.entries.map(\.id) == [1, 2])
        #expect(state.sealed?.entries.first?.messages == fallback)
    }
}
