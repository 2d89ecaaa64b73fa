@testable import Kafka
import Testing

/// The poll thread lets go of what its work captured (in real use, the client and its `rd_kafka_t`)
/// before the awaiting task resumes, so that the awaiter's reference is the last one and the client is
/// destroyed on the awaiter's side, never by the finishing thread while the owner tears down.
@Suite struct KafkaPollThreadTests {
    /// Stands in for a client: something the thread's work captures.
    final class Borrowed: Sendable {
        func touch() {}
    }

    @Test func callWithoutResultLetsGoOfItsWorkBeforeTheAwaitReturns() async {
        for _ in 0..<20 {
            var borrowed = Borrowed()
            await KafkaPollThread.call(name: "kafka-poll-test") { [borrowed] in borrowed.touch() }
            #expect(isKnownUniquelyReferenced(&borrowed), "the finished thread still held the work")
        }
    }

    @Test func callLetsGoOfItsWorkBeforeReturningTheResult() async {
        for round in 0..<20 {
            var borrowed = Borrowed()
            let result = await KafkaPollThread.call(name: "kafka-call-test") { [borrowed] in
                borrowed.touch()
                return round
            }
            #expect(result == round)
            #expect(isKnownUniquelyReferenced(&borrowed), "the finished thread still held the work")
        }
    }
}
