import Dispatch
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

    /// The bound on a rebalance handler and on a client's close: a timeout too long for nanoseconds waits
    /// forever instead of trapping (or wrapping around to a deadline in the past).
    @Test func aTimeoutBeyondNanosecondsWaitsForever() {
        #expect(DispatchTime.after(.seconds(Int64.max)) == .distantFuture)
        #expect(DispatchTime.after(.seconds(10_000_000_000)) == .distantFuture)
        let inAMinute = DispatchTime.after(.seconds(60))
        #expect(inAMinute > .now() && inAMinute < .now() + .seconds(61))
        #expect(DispatchTime.after(.seconds(-5)) <= .now())
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
