import FeatureQuerySupport
import Kafka

/// Everything that hears how a request's outcome ended, behind one call per ending: the delivery paths (the
/// producer's and the transactions') report an outcome once, here, and what watches outcomes is added here,
/// not at each path.
///
/// A delivered outcome feeds the metrics, the terminal status line, the summary line's error count, the status
/// page's recent activity and the request's span, all with one reading of the clock.
struct OutcomeObservers: Sendable {
    let metrics: WorkerMetrics
    let events: WorkerEvents
    /// The summary line's error count (``WorkerCore/summaryLoop()``).
    let summaryCounts = SummaryCounts()
    /// What was answered lately, for the status page (``WorkerCore/status(nowMs:)``).
    let activity = RecentActivity()

    /// The outcome's delivery report is back, or its transaction committed: the client can read it now.
    func delivered(_ message: OutcomeMessage, source: MessageSource) {
        let nowMs = WallClock.nowMilliseconds()
        metrics.delivered(message, nowMs: nowMs)
        events.delivered(message, source: source, nowMs: nowMs)
        summaryCounts.delivered(message)
        activity.record(message, nowMs: nowMs)
        source.trace?.delivered(message)
    }

    /// The outcome was given up on: its request is left, offset unstored, to the partition's next owner. The
    /// failure line stands in for the status line the request does not get.
    func abandoned(_ message: OutcomeMessage, source: MessageSource, failure: KafkaError) {
        events.abandoned(message, source: source, failure: failure)
        source.trace?.abandoned(failure)
    }

    /// The outcome was dropped because its partition went to another member, which answers the request: the
    /// designed way, so no failure line (the revocation's or the transaction's own line says how many).
    func handedToNextOwner(source: MessageSource, failure: KafkaError) {
        source.trace?.abandoned(failure)
    }
}
