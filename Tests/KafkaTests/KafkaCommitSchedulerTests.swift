import Testing

@testable import Kafka

/// When the consumer commits stored offsets on its own: one commit in flight, the next carrying what was
/// stored meanwhile.
@Suite struct KafkaCommitSchedulerTests {
    @Test func aStoreCommitsAtOnceWhenIdleAndLaterStoresRideOnOneMoreCommit() {
        var scheduler = KafkaCommitScheduler()
        let decisions = [
            scheduler.stored(),  // idle: commit now
            scheduler.stored(),  // one in flight: wait
            scheduler.stored(),  // still one more, not two
            scheduler.completed(),  // stored meanwhile: commit again
            scheduler.completed(),  // nothing stored since: idle
        ]
        #expect(decisions == [true, false, false, true, false])
        #expect(scheduler.state == .idle)
        let again = scheduler.stored()
        #expect(again, "idle again: commit now")
    }

    @Test func aCompletionWithNothingInFlightLeavesItIdle() {
        var scheduler = KafkaCommitScheduler()
        let again = scheduler.completed()
        #expect(!again)
        #expect(scheduler.state == .idle)
    }
}
