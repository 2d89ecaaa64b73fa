import SampleFeatureServer
import Testing

/// The server's measure of a client's concurrency: answered requests' spans in event order, abandoned ones left
/// out (the server learns of a departure only after the client may have sent its next request).
@Suite("Answered service spans")
struct AnsweredServiceSpansTests {
    @Test func nestedAndSequentialSpansCountWhatOverlaps() {
        var spans = AnsweredServiceSpans()
        let first = spans.began()
        let second = spans.began()
        spans.ended(began: first, answered: true)
        let third = spans.began()
        spans.ended(began: second, answered: true)
        spans.ended(began: third, answered: true)
        let fourth = spans.began()
        spans.ended(began: fourth, answered: true)
        #expect(spans.mostAtOnce == 2)
    }

    /// A client gives up on a request, closes its connection and sends the next one; the server reads the closed
    /// connection only after the next request began. The running count says 2, the client never had more than 1.
    @Test func aRequestAbandonedBeforeTheNextBeganIsNotCounted() {
        var spans = AnsweredServiceSpans()
        let abandoned = spans.began()
        let next = spans.began()
        spans.ended(began: abandoned, answered: false)
        spans.ended(began: next, answered: true)
        #expect(spans.mostAtOnce == 1)
    }

    @Test func aSpanThatBeganBeforeTheSpansWereForgottenStillCounts() {
        var spans = AnsweredServiceSpans()
        let before = spans.began()
        spans.forgetSpans()
        let after = spans.began()
        spans.ended(began: before, answered: true)
        spans.ended(began: after, answered: true)
        #expect(spans.mostAtOnce == 2)
    }

    @Test func spansBeyondTheLimitAreNotRecorded() {
        var spans = AnsweredServiceSpans(limit: 1)
        let first = spans.began()
        let second = spans.began()
        spans.ended(began: first, answered: true)
        spans.ended(began: second, answered: true)
        #expect(spans.mostAtOnce == 1)
        #expect(AnsweredServiceSpans().mostAtOnce == 0)
    }
}
