/// How far a request message's Kafka timestamp lies beyond the worker's `maxRequestAge`.
///
/// `timeoutMs` counts from when the worker reads a message (only an absolute `deadline` sees the time spent
/// waiting, and most requests carry none), so a request that waited in Kafka (a worker outage, a new consumer
/// group replaying the topic from its earliest offset) would still run; the age bound is what stops such
/// backlogs. It is judged by the message's timestamp: CreateTime (the producer's
/// clock) or LogAppendTime (the broker's), whichever the topic keeps.
package struct RequestAge: Sendable, Hashable {
    /// How old the message was when read: now minus its timestamp, in milliseconds.
    package var ageMs: Int64
    /// The bound it passed (`maxRequestAge`), in milliseconds.
    package var limitMs: Int64

    /// The age of a message stamped `timestampMs` when it is older than `limitMs` at `nowMs`; `nil` when it may
    /// run: young enough (an age equal to the limit still runs), unstamped (`nil`, librdkafka's -1: nothing to
    /// judge by), or no bound (`limitMs` zero or less).
    package static func tooOld(timestampMs: Int64?, nowMs: Int64, limitMs: Int64) -> RequestAge? {
        guard limitMs > 0, let timestampMs, timestampMs >= 0 else { return nil }
        let (age, overflow) = nowMs.subtractingReportingOverflow(timestampMs)
        guard !overflow, age > limitMs else { return nil }
        return RequestAge(ageMs: age, limitMs: limitMs)
    }
}
