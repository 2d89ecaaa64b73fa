import RequestContract
/// Why a request ended without its run's outcome. Coordination decides these at the moment it detaches the
/// request from its run (``TaskRegistry`` returns them with the request), which is what keeps them from racing
/// the run's own result. Each reason maps to exactly one contract code, here and nowhere else; the published
/// status comes from the contract's own enum (``ErrorMessage/Status``), so there is one source for both.
enum Interruption: Hashable, Sendable {
    /// A newer request for the same task, with a different query, replaced it.
    case superseded(by: String)
    /// A cancel message, shutdown or a revocation stopped it.
    case cancelled(CancelReason)
    /// Its deadline passed, on arrival or while it ran.
    case expired
    /// Its message was older than `maxRequestAge` when read: answered without a run.
    case tooOld(RequestAge)

    /// The code of the published error.
    var code: ContractError.Code {
        switch self {
        case .superseded: .superseded
        case .cancelled(let reason): reason.code
        case .expired: .deadlineExceeded
        case .tooOld: .requestTooOld
        }
    }
}

/// Why a request was cancelled. Chosen where the cancelling decision is made: the cancel message's handler,
/// the revocation, the shutdown, or a run that ended cancelled while requests were still attached to it (only
/// the worker's own task being cancelled does that: every other cancellation detaches the requests first).
enum CancelReason: Hashable, Sendable, CaseIterable {
    /// A `{taskId, cancel: true}` message named the request's task.
    case requested
    /// The worker is stopping: graceful shutdown, or its task was cancelled.
    case shutdown
    /// The request's partition was taken from this worker in a rebalance.
    case partitionRevoked

    /// The code of the published `cancelled` error.
    var code: ContractError.Code {
        switch self {
        case .requested: .cancelRequested
        case .shutdown: .shutdown
        case .partitionRevoked: .partitionRevoked
        }
    }
}
