import RequestContract
/// A terminal outcome on its way out: a result (possibly split into parts) or an error.
enum OutcomeMessage: Sendable {
    case result(ResultMessage)
    case error(ErrorMessage)

    /// The one place an answer becomes a message: each kind of answer, and each interruption's code
    /// (``Interruption/code``), maps to exactly one message. `finishedAt` is when the worker publishes it
    /// (a result keeps its run's own finish time).
    init(_ answer: WorkerCore.StateMachine.Answer, worker: String, finishedAt: Int64) {
        switch answer {
        case .rejected(let rejection, let source, let receivedAt):
            self = .error(.rejected(rejection, source: source, worker: worker, receivedAt: receivedAt, finishedAt: finishedAt))
        case .result(_, let result):
            self = .result(result)
        case .failed(let pending, let error):
            self = .error(ErrorMessage(
                requestId: pending.request.requestId, taskId: pending.request.taskId, status: .failed, error: error,
                source: pending.source, worker: worker, receivedAt: pending.request.receivedAt, finishedAt: finishedAt))
        case .interrupted(let pending, .superseded(let newer)):
            self = .error(.superseded(pending.request, by: newer, source: pending.source, worker: worker, finishedAt: finishedAt))
        case .interrupted(let pending, .cancelled(let reason)):
            self = .error(.cancelled(pending.request, reason: reason, source: pending.source, worker: worker, finishedAt: finishedAt))
        case .interrupted(let pending, .expired):
            self = .error(.expired(pending.request, source: pending.source, worker: worker, finishedAt: finishedAt))
        case .interrupted(let pending, .tooOld(let age)):
            self = .error(.tooOld(pending.request, age: age, source: pending.source, worker: worker, finishedAt: finishedAt))
        }
    }

    /// The published status, from the contract's own enums (``ResultMessage/Status``, ``ErrorMessage/Status``):
    /// the one source of status names.
    var status: String {
        switch self {
        case .result(let result): result.status.rawValue
        case .error(let error): error.status.rawValue
        }
    }
}

extension WorkerCore.StateMachine.Answer {
    /// Where the answered message was read.
    var source: MessageSource {
        switch self {
        case .rejected(_, let source, _): source
        case .result(let pending, _), .failed(let pending, _), .interrupted(let pending, _): pending.source
        }
    }
}
