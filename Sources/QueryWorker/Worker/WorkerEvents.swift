import JSONLogging
import Kafka
import Logging
import RequestContract

/// The worker's log lines: one per request state change, with the fields operators search by.
///
/// With the JSON handler (the worker's own), the per-request lines are written straight into their bytes
/// (``JSONStatusLine``): the same lines, at a fraction of the cost of metadata dictionaries. Any other
/// handler gets the same fields as metadata.
struct WorkerEvents: Sendable {
    let logger: Logger
    /// Where status lines go when the logger's handler is the JSON handler without metadata of its own:
    /// resolved once, the logger never changes.
    private let json: JSONStatusLine.Origin?

    init(logger: Logger) {
        self.logger = logger
        self.json = (logger.handler as? JSONLogHandler).flatMap(JSONStatusLine.Origin.init)
    }

    func received(_ pending: PendingRequest) {
        if let json, var line = JSONStatusLine(json, level: .info, message: "received") {
            line.integerString("offset", pending.source.offset)
            line.integerString("partition", Int64(pending.source.partition))
            line.string("requestId", pending.request.requestId)
            line.integerString("targets", Int64(pending.request.targets.count))
            line.string("taskId", pending.request.taskId)
            return line.write()
        }
        var fields = metadata(pending, room: 1)
        fields["targets"] = .string(String(pending.request.targets.count))
        logger.info("received", metadata: fields)
    }

    func started(_ pending: PendingRequest, run: RunID) {
        if let json, var line = JSONStatusLine(json, level: .info, message: "started") {
            line.integerString("offset", pending.source.offset)
            line.integerString("partition", Int64(pending.source.partition))
            line.string("requestId", pending.request.requestId)
            line.integerString("run", run.rawValue)
            line.string("taskId", pending.request.taskId)
            return line.write()
        }
        var fields = metadata(pending, room: 1)
        fields["run"] = .string(String(run.rawValue))
        logger.info("started", metadata: fields)
    }

    func shared(_ pending: PendingRequest, run: RunID) {
        var fields = metadata(pending, room: 1)
        fields["run"] = .string(String(run.rawValue))
        logger.info("shared", metadata: fields)
    }

    /// The terminal status line, logged when the outcome's delivery report is back: a line saying
    /// `succeeded` means the client can read the result. (An outcome given up on gets ``abandoned(_:source:failure:)``
    /// instead.)
    func delivered(_ message: OutcomeMessage, source: MessageSource, nowMs: Int64) {
        if let json, writeDelivered(json, message, source: source, nowMs: nowMs) { return }
        var fields = metadata(message, source, room: 5)
        let status = message.status
        fields["status"] = .string(status)
        let level: Logger.Level
        switch message {
        case .result(let result):
            fields["durationMs"] = .string(String(max(0, nowMs - result.receivedAt)))
            fields["counts"] = .array(result.layers.map { .string(String($0.reportedCount)) })
            level = .info
        case .error(let error):
            fields["durationMs"] = "\(max(0, nowMs - error.receivedAt))"
            fields["errorCode"] = "\(error.error.code.rawValue)"
            if error.status == .rejected { fields["error"] = "\(error.error.message)" }
            if let supersededBy = error.supersededBy { fields["supersededBy"] = "\(supersededBy)" }
            level = .notice
        }
        logger.log(level: level, "\(status)", metadata: fields)
    }

    /// ``delivered(_:source:nowMs:)``'s line through ``JSONStatusLine``, members in key order; false when the
    /// handler takes the general path.
    private func writeDelivered(_ json: JSONStatusLine.Origin, _ message: OutcomeMessage, source: MessageSource, nowMs: Int64) -> Bool {
        switch message {
        case .result(let result):
            let status = result.status.rawValue
            guard var line = JSONStatusLine(json, level: .info, message: status) else { return false }
            line.integerStrings("counts", result.layers.map(\.reportedCount))
            line.integerString("durationMs", max(0, nowMs - result.receivedAt))
            line.integerString("offset", source.offset)
            line.integerString("partition", Int64(source.partition))
            line.string("requestId", result.requestId)
            line.string("status", status)
            line.string("taskId", result.taskId)
            line.write()
        case .error(let error):
            guard var line = JSONStatusLine(json, level: .notice, message: error.status.rawValue) else { return false }
            line.integerString("durationMs", max(0, nowMs - error.receivedAt))
            if error.status == .rejected { line.string("error", error.error.message) }
            line.string("errorCode", error.error.code.rawValue)
            line.integerString("offset", source.offset)
            line.integerString("partition", Int64(source.partition))
            if let requestId = error.requestId { line.string("requestId", requestId) }
            line.string("status", error.status.rawValue)
            if let supersededBy = error.supersededBy { line.string("supersededBy", supersededBy) }
            if let taskId = error.taskId { line.string("taskId", taskId) }
            line.write()
        }
        return true
    }

    /// The outcome could not be delivered and is left, with its offset, to the partition's next owner.
    func abandoned(_ message: OutcomeMessage, source: MessageSource, failure: KafkaError) {
        var fields = metadata(message, source, room: 3)
        fields["status"] = .string(message.status)
        fields["error.code"] = "\(failure.code)"
        fields["error"] = "\(failure.message)"
        logger.error("publishing an outcome failed; its request is left for redelivery", metadata: fields)
    }

    /// The fields every line of a request has, in a dictionary with `room` for the caller's own: sized once
    /// (a literal of four grows, and rehashes, on the fifth key), the ids taken as they are, not interpolated.
    private func metadata(_ pending: PendingRequest, room: Int) -> Logger.Metadata {
        var fields = Logger.Metadata(minimumCapacity: 4 + room)
        fields["requestId"] = .string(pending.request.requestId)
        fields["taskId"] = .string(pending.request.taskId)
        fields["partition"] = .string(String(pending.source.partition))
        fields["offset"] = .string(String(pending.source.offset))
        return fields
    }

    private func metadata(_ message: OutcomeMessage, _ source: MessageSource, room: Int) -> Logger.Metadata {
        let (requestId, taskId): (String?, String?) = switch message {
        case .result(let result): (result.requestId, result.taskId)
        case .error(let error): (error.requestId, error.taskId)
        }
        var fields = Logger.Metadata(minimumCapacity: 4 + room)
        fields["partition"] = .string(String(source.partition))
        fields["offset"] = .string(String(source.offset))
        if let requestId { fields["requestId"] = .string(requestId) }
        if let taskId { fields["taskId"] = .string(taskId) }
        return fields
    }
}
