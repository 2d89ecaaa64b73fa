internal import Kafka

/// Identifies one execution of a query. A run is not a request: several requests may share one run (same
/// task, equal fingerprint), and a request's run may be cancelled while the request is answered at once.
///
/// Run ids are handed out in increasing order by one ``TaskRegistry`` and never reused, so a late
/// ``TaskRegistry/finished(_:)`` for a run that was cancelled long ago cannot be mistaken for a newer
/// run of the same task.
struct RunID: Hashable, Comparable, Sendable {
    let rawValue: UInt64

    init(_ rawValue: UInt64) { self.rawValue = rawValue }

    static func < (a: RunID, b: RunID) -> Bool { a.rawValue < b.rawValue }
}

/// Where a message was read: its partition and offset. The offset is what ``PartitionOffsetTracker`` needs
/// once the request is done; the partition is what a revocation names.
struct MessagePosition: Hashable, Sendable, CustomStringConvertible {
    var partition: KafkaTopicPartition
    var offset: Int64

    init(_ partition: KafkaTopicPartition, offset: Int64) {
        self.partition = partition
        self.offset = offset
    }

    var description: String { "\(partition)@\(offset)" }
}

/// A request the registry holds until it is answered: enough to address its outcome (`requestId`, `taskId`)
/// and to mark its message done (`position`).
struct AttachedRequest: Hashable, Sendable {
    var requestId: String
    var taskId: String
    var position: MessagePosition
    /// Milliseconds since the Unix epoch (Kafka's timestamp unit); `nil` for no deadline.
    var deadlineMs: Int64?

    init(requestId: String, taskId: String, position: MessagePosition, deadlineMs: Int64? = nil) {
        self.requestId = requestId
        self.taskId = taskId
        self.position = position
        self.deadlineMs = deadlineMs
    }

    /// Whether the deadline has passed at `nowMs`. A deadline equal to now has passed: there is no time left.
    func isExpired(atMs nowMs: Int64) -> Bool {
        guard let deadlineMs else { return false }
        return deadlineMs <= nowMs
    }
}

/// A request the registry gave up before its run's outcome: detached at the moment coordination decided,
/// so the answer never races the run's own result. The registry returns each request in exactly one answer
/// (or from ``TaskRegistry/finished(_:)``), exactly once; after that it has forgotten the request.
struct TaskAnswer: Hashable, Sendable {
    var request: AttachedRequest
    var reason: Interruption

    init(_ request: AttachedRequest, _ reason: Interruption) {
        self.request = request
        self.reason = reason
    }

    var requestId: String { request.requestId }
}

/// What a cancelling transition asks of the worker: cancel these runs' tasks now, and publish these answers
/// now. The answers cover every request that was attached to the cancelled runs (and, for expiry and
/// revocation, requests detached from runs that go on for others), so nothing is left for the runs to
/// answer when they finally return: ``TaskRegistry/finished(_:)`` gives nothing for them.
struct TaskCancellation: Hashable, Sendable {
    var runs: [RunID]
    var answers: [TaskAnswer]

    init(runs: [RunID] = [], answers: [TaskAnswer] = []) {
        self.runs = runs
        self.answers = answers
    }


    static let none = TaskCancellation()
}
