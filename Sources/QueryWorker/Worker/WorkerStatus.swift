/// A worker's state at one instant, for the operations endpoint (`/health/*` and the status page): what an
/// on-call person asks first, read under the worker's lock in one go so the figures agree with each other.
///
/// Plain values only (no Kafka or lifecycle types), so the operations module renders it without knowing the
/// worker's machinery. Made by ``WorkerAssembly/status()``.
package struct WorkerStatus: Sendable {
    /// Where the worker's message loop is in its life: `/health/live` answers 200 while it runs or drains.
    package enum Phase: String, Sendable, Hashable {
        /// The services are starting; the message loop has not begun.
        case starting
        /// The message loop reads requests (it may be waiting for an unreachable cluster).
        case running
        /// Graceful shutdown: no more requests are read; running ones finish or are cancelled.
        case draining
        /// The message loop has ended.
        case stopped
    }

    /// One assigned request partition.
    package struct Partition: Sendable, Hashable {
        package var topic: String
        package var partition: Int32
        /// Requests read from it and not done (answered and delivered).
        package var inFlight: Int
        /// The next offset the worker may commit (every request before it is done); `nil` before the first.
        package var committable: Int64?
        /// The offset last committed to the group; `nil` when not known.
        package var committed: Int64?
        /// The partition's end (high watermark); `nil` when not known.
        package var end: Int64?
        /// Requests waiting: end − committed, or what the consumer reports; `nil` when not known.
        package var lag: Int64?
    }

    /// A request received and not yet answered.
    package struct InFlightRequest: Sendable, Hashable {
        package var requestId: String
        package var taskId: String
        package var partition: Int32
        package var offset: Int64
        /// Milliseconds since the worker received it.
        package var ageMs: Int64
    }

    /// Outcomes published with one status and code since the start.
    package struct OutcomeCount: Sendable, Hashable {
        package var status: String
        /// The error code, or `none` for results.
        package var code: String
        package var count: Int
    }

    /// One of the last errors answered (`failed`, `rejected`, `expired`).
    package struct RecentError: Sendable, Hashable {
        package var code: String
        package var message: String
        package var requestId: String?
        /// When it was answered, milliseconds since the epoch.
        package var atMs: Int64
    }

    /// Outcomes answered in one interval of ``RecentActivity/bucketMilliseconds``.
    package struct ActivityBucket: Sendable, Hashable {
        /// The interval's start, milliseconds since the epoch.
        package var startMs: Int64
        package var answered: Int
        /// Of ``answered``, the errors (`failed`, `rejected`, `expired`).
        package var errors: Int
    }

    /// What the worker knows of its Kafka clients: `/health/ready` is their conjunction.
    package struct KafkaHealth: Sendable, Hashable {
        /// The consumer is a member of its group (it may own no partition when the group has more members).
        package var joinedGroup: Bool
        /// At least one broker is reachable.
        package var connected: Bool
        /// The producer can deliver outcomes (its last delivery did not fail).
        package var producerCanDeliver: Bool

        package init(joinedGroup: Bool, connected: Bool, producerCanDeliver: Bool) {
            self.joinedGroup = joinedGroup
            self.connected = connected
            self.producerCanDeliver = producerCanDeliver
        }

        /// Why the worker is not ready, in words for the `/health/ready` body; `nil` when it is.
        package var notReadyReason: String? {
            if !connected { return "no Kafka broker is reachable" }
            if !joinedGroup { return "the consumer has not joined its group" }
            if !producerCanDeliver { return "the producer cannot deliver outcomes" }
            return nil
        }
    }

    /// One setting in force, its value as the start-up line writes it (secrets redacted).
    package struct Setting: Sendable, Hashable {
        package var key: String
        package var value: String
    }

    package var workerID: String
    package var groupID: String
    package var phase: Phase
    /// When the snapshot was taken, milliseconds since the epoch.
    package var capturedAtMs: Int64
    package var partitions: [Partition]
    /// Oldest first.
    package var inFlight: [InFlightRequest]
    /// Engine runs executing (shared requests run once).
    package var runs: Int
    /// Whether the in-flight gate holds the message loop (``WorkerSettings/Limits/maxInFlight`` reached).
    package var intakePaused: Bool
    /// Outcomes delivered (or given up on) since the start.
    package var answered: Int
    /// By status and code, sorted.
    package var outcomes: [OutcomeCount]
    /// Newest first.
    package var recentErrors: [RecentError]
    /// Oldest first, the current interval last; each ``activityBucketSeconds`` long.
    package var activity: [ActivityBucket]
    /// The length of one ``activity`` interval.
    package static let activityBucketSeconds = Int(RecentActivity.bucketMilliseconds / 1_000)
    package var kafka: KafkaHealth
    /// Sorted by key.
    package var settings: [Setting]

    /// `/health/live`: the message loop runs (or drains); a worker that cannot reach Kafka is still live.
    package var isLive: Bool { phase == .running || phase == .draining }

    /// `/health/ready`: running, joined and able to deliver; `nil` when ready, else why not.
    package var notReadyReason: String? {
        guard phase == .running else { return "the worker is \(phase.rawValue)" }
        return kafka.notReadyReason
    }
}
