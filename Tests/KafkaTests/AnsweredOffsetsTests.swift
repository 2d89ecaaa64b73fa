import Testing

@testable import Kafka

/// Answers committed past a partition's committed offset, named in the commit's metadata (``AnsweredOffsets``)
/// and carried by the transactions' seals (``KafkaTransactions/StateMachine``): without a cluster.
@Suite("Answered offsets past the commit")
struct AnsweredOffsetsTests {
    let p0 = KafkaTopicPartition(topic: "requests", partition: 0)

    @Test func rangesRelativeToTheCommittedOffsetRoundTrip() {
        let (text, leftOut) = AnsweredOffsets.metadata(committing: 13, answered: [19, 14, 15, 16, 12, 60])
        #expect(text == "answered:1:1-3,6,1b", "offsets below the commit are left out; 60 is 47 past 13, 1b in base 36")
        #expect(leftOut == 0)
        #expect(AnsweredOffsets.offsets(in: text, committed: 13) == [14, 15, 16, 19, 60])
        #expect(AnsweredOffsets.metadata(committing: 13, answered: [1, 2]).text.isEmpty, "nothing past the commit: no metadata")
    }

    @Test(arguments: ["", "other-client", "answered:1:", "answered:1:z-a", "answered:1:1,-,2", "answered:2:1-3", "answered:1:-1"])
    func metadataOfAnotherShapeNamesNothing(_ text: String) {
        #expect(AnsweredOffsets.offsets(in: text, committed: 100).isEmpty)
    }

    @Test func rangesThatDoNotFitAreCountedNotWritten() {
        let answered = stride(from: Int64(1), to: 4_000, by: 2)  // 2,000 single offsets: no ranges to merge
        let (text, leftOut) = AnsweredOffsets.metadata(committing: 0, answered: answered)
        #expect(text.utf8.count <= AnsweredOffsets.maximumLength)
        #expect(leftOut > 0)
        #expect(AnsweredOffsets.offsets(in: text, committed: 0).count + leftOut == 2_000)
    }

    func append(_ state: inout KafkaTransactions.StateMachine, _ entry: KafkaTransactions.StateMachine.Entry) {
        beginAppend(&state, entry)
        state.endAppend()
    }

    func beginAppend(_ state: inout KafkaTransactions.StateMachine, _ entry: KafkaTransactions.StateMachine.Entry) {
        let appended = state.beginAppend(entry)
        #expect(appended, "entry \(entry.id) appended")
    }

    func expectSeal(
        _ state: inout KafkaTransactions.StateMachine, _ expected: KafkaTransactions.StateMachine.SealResult,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let result = state.seal()
        #expect(result == expected, sourceLocation: sourceLocation)
    }

    /// An answer whose offset completes the partition's done prefix: appended, then `next` stored.
    func append(_ state: inout KafkaTransactions.StateMachine, _ entry: KafkaTransactions.StateMachine.Entry, storing next: Int64) {
        beginAppend(&state, entry)
        state.store([p0: next])
        state.endAppend()
    }

    /// Seals transaction `number`, expects it to commit `offset` with `metadata` for the partition, and commits it.
    func expectCommit(
        _ state: inout KafkaTransactions.StateMachine, _ number: UInt64, offset: Int64, metadata: String?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        expectSeal(&state, .transaction(number: number), sourceLocation: sourceLocation)
        #expect(state.sealed?.offsets == [p0: offset], sourceLocation: sourceLocation)
        #expect(state.sealed?.metadata[p0] == metadata, sourceLocation: sourceLocation)
        _ = state.committedSealed()
    }

    func entry(_ id: UInt64, offset: Int64, resume: Int64) -> KafkaTransactions.StateMachine.Entry {
        .init(id: id, messages: [KafkaProducerMessage(topic: "results", value: [1])], partition: p0, offset: offset, resumeOffset: resume)
    }

    /// Requests 0…4 read; 1, 2 and 4 answered while 0 and 3 run: the seal commits offset 0 (nothing before the
    /// first request is answered) and names 1, 2 and 4. Once 0 is answered and stored (next 3), the next seal
    /// commits 3 and still names 4.
    @Test func aSealCommitsTheOffsetWithTheAnswersPastIt() {
        var state = KafkaTransactions.StateMachine()
        state.assign([p0])
        for (id, offset) in [(1, 1), (2, 2), (3, 4)] {
            append(&state, entry(UInt64(id), offset: Int64(offset), resume: 0))
        }
        expectCommit(&state, 1, offset: 0, metadata: "answered:1:1-2,4")
        append(&state, entry(4, offset: 0, resume: 0), storing: 3)
        expectCommit(&state, 2, offset: 3, metadata: "answered:1:1")  // 4 is one past 3
        expectSeal(&state, .nothing)
    }

    /// An aborted seal's answers are not committed: the next seal names them again with its own.
    @Test func anAbortedSealsAnswersAreNamedByTheSealThatCommitsThem() {
        var state = KafkaTransactions.StateMachine()
        state.assign([p0])
        append(&state, entry(1, offset: 5, resume: 3))
        expectSeal(&state, .transaction(number: 1))
        #expect(state.sealed?.metadata[p0] == "answered:1:2")
        _ = state.abortedSealed()
        append(&state, entry(2, offset: 6, resume: 3))
        expectSeal(&state, .transaction(number: 2))
        #expect(state.sealed?.offsets == [p0: 3])
        #expect(state.sealed?.metadata[p0] == "answered:1:2-3")
    }

    /// A partition's previous owner committed 10 and named 12: this member's first seal (answering 11 while 10
    /// runs) commits 10 again and names both, so a third owner skips 11 and 12 too.
    @Test func answersInheritedFromThePreviousOwnerStayNamedUntilTheCommitPassesThem() {
        var state = KafkaTransactions.StateMachine()
        state.assign([p0], inherited: [p0: .init(committed: 10, answered: [12])])
        append(&state, entry(1, offset: 11, resume: 10))
        expectCommit(&state, 1, offset: 10, metadata: "answered:1:1-2")
        // 10 answered: everything up to 13 is (12 was never read here: the consumer left it out).
        append(&state, entry(2, offset: 10, resume: 10), storing: 13)
        expectCommit(&state, 2, offset: 13, metadata: nil)
    }
}
