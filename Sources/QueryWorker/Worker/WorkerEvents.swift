import Logging

/// The worker's log lines: one per request state change, with the fields operators search by.
struct WorkerEvents: Sendable {
    let logger: Logger

    func received(_ pending: PendingRequest) {
        var fields = metadata(pending)
        fields["targets"] = "\(pending.request.targets.count)"
        logger.info("received", metadata: fields)
    }

    func started(_ pending: PendingRequest, run: RunID) {
        var fields = metadata(pending)
        fields["run"] = "\(run.rawValue)"
        logger.info("started", metadata: fields)
    }

    func shared(_ pending: PendingRequest, run: RunID) {
        var fields = metadata(pending)
        fields["run"] = "\(run.rawValue)"
        logger.info("shared", metadata: fields)
    }

    func answered(_ pending: PendingRequest, status: TerminalStatus, errorCode: String?, counts: [Int] = [], supersededBy: String? = nil, nowMs: Int64) {
        var fields = metadata(pending)
        fields["status"] = "\(status.rawValue)"
        fields["durationMs"] = "\(max(0, nowMs - pending.request.receivedAt))"
        if let errorCode { fields["errorCode"] = "\(errorCode)" }
        if !counts.isEmpty { fields["counts"] = .array(counts.map { "\($0)" }) }
        if let supersededBy { fields["supersededBy"] = "\(supersededBy)" }
        let level: Logger.Level = status == .succeeded || status == .partial ? .info : .notice
        logger.log(level: level, "\(status.rawValue)", metadata: fields)
    }

    func rejected(_ rejection: RejectedRequest, source: MessageSource) {
        var fields: Logger.Metadata = [
            "partition": "\(source.partition)", "offset": "\(source.offset)", "status": "rejected",
            "errorCode": "\(rejection.code.rawValue)", "error": "\(rejection.message)",
        ]
        if let requestId = rejection.requestId { fields["requestId"] = "\(requestId)" }
        if let taskId = rejection.taskId { fields["taskId"] = "\(taskId)" }
        logger.notice("rejected", metadata: fields)
    }

    private func metadata(_ pending: PendingRequest) -> Logger.Metadata {
        [
            "requestId": "\(pending.request.requestId)", "taskId": "\(pending.request.taskId)",
            "partition": "\(pending.source.partition)", "offset": "\(pending.source.offset)",
        ]
    }
}
