import Synchronization
import RequestContract

/// What the worker answered lately, for the status page's chart and tables: answers and errors per
/// ``bucketMilliseconds`` over the last ``bucketCount`` intervals (a ring of fixed size, so memory does not grow
/// with traffic), outcome counts by status and code since the start, and the last ``errorCapacity`` errors.
///
/// Updated once per delivered outcome (one lock, a few integer adds); metrics are the metrics lane's, this is
/// only what the status snapshot shows.
final class RecentActivity: Sendable {
    /// One chart interval: 10 s.
    static let bucketMilliseconds: Int64 = 10_000
    /// Intervals kept: 10 minutes.
    static let bucketCount = 60
    /// Errors kept for the "last errors" table.
    static let errorCapacity = 20

    private struct Bucket {
        /// `startMs / bucketMilliseconds` of the interval this slot holds; a stale slot counts as empty.
        var index: Int64 = -1
        var answered = 0
        var errors = 0
    }

    private struct State {
        var buckets = [Bucket](repeating: Bucket(), count: RecentActivity.bucketCount)
        var counts: [StatusCode: Int] = [:]
        /// A ring of the last errors; `nextError` is where the next one goes.
        var errors: [WorkerStatus.RecentError] = []
        var nextError = 0
    }

    private struct StatusCode: Hashable {
        var status: String
        var code: String
    }

    private let state = Mutex(State())

    /// The statuses that count as errors in the error rate: the worker could not answer with a result.
    /// `superseded` and `cancelled` are the client's own doing, not failures.
    static func isError(_ status: String) -> Bool {
        status == "failed" || status == "rejected" || status == "expired"
    }

    /// Records one delivered outcome.
    func record(_ message: OutcomeMessage, nowMs: Int64) {
        let status = message.status
        var failure: WorkerStatus.RecentError?
        var code = "none"
        if case .error(let error) = message {
            code = error.error.code.rawValue
            if Self.isError(status) {
                failure = WorkerStatus.RecentError(code: code, message: error.error.message, requestId: error.requestId, atMs: nowMs)
            }
        }
        record(status: status, code: code, error: failure, nowMs: nowMs)
    }

    /// Records one outcome by its parts (the tests' way in).
    func record(status: String, code: String, error: WorkerStatus.RecentError?, nowMs: Int64) {
        let index = nowMs / Self.bucketMilliseconds
        let slot = Int(index % Int64(Self.bucketCount))
        state.withLock { state in
            if state.buckets[slot].index != index { state.buckets[slot] = Bucket(index: index) }
            state.buckets[slot].answered += 1
            if error != nil { state.buckets[slot].errors += 1 }
            state.counts[StatusCode(status: status, code: code), default: 0] += 1
            guard let error else { return }
            if state.errors.count < Self.errorCapacity {
                state.errors.append(error)
            } else {
                state.errors[state.nextError] = error
            }
            state.nextError = (state.nextError + 1) % Self.errorCapacity
        }
    }

    /// The intervals of the last ``bucketCount`` (oldest first, the current one last, empty ones included),
    /// the counts by status and code (sorted), and the last errors (newest first).
    func snapshot(nowMs: Int64) -> (
        activity: [WorkerStatus.ActivityBucket], outcomes: [WorkerStatus.OutcomeCount], errors: [WorkerStatus.RecentError]
    ) {
        let current = nowMs / Self.bucketMilliseconds
        let (buckets, counts, errors, next) = state.withLock { ($0.buckets, $0.counts, $0.errors, $0.nextError) }
        let activity = (0..<Int64(Self.bucketCount)).reversed().map { back -> WorkerStatus.ActivityBucket in
            let index = current - back
            let bucket = buckets[Int(((index % Int64(Self.bucketCount)) + Int64(Self.bucketCount)) % Int64(Self.bucketCount))]
            let live = bucket.index == index
            return WorkerStatus.ActivityBucket(
                startMs: index * Self.bucketMilliseconds, answered: live ? bucket.answered : 0, errors: live ? bucket.errors : 0)
        }
        let outcomes = counts.map { WorkerStatus.OutcomeCount(status: $0.key.status, code: $0.key.code, count: $0.value) }
            .sorted { ($0.status, $0.code) < ($1.status, $1.code) }
        // The ring in order of arrival (oldest at `next` once full), then reversed.
        let ordered = errors.count < Self.errorCapacity ? errors : Array(errors[next...] + errors[..<next])
        return (activity, outcomes, ordered.reversed())
    }
}
