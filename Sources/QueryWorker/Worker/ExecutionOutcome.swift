import RequestContract
/// How running one admitted request ended, before it is turned into a message.
///
/// Kept apart from the messages themselves (``ResultMessage``, ``ErrorMessage``) because the run does not know
/// where the request came from (its ``MessageSource``) and may be shared by several requests that asked the
/// same: the worker addresses one outcome to each of them (``ResultMessage/addressed(to:)``).
enum ExecutionOutcome: Sendable {
    /// The query ran and at least one layer answered: status `succeeded` or `partial` (``ResultMessage/status``).
    case result(ResultMessage)
    /// The query ran and every layer failed: status `failed`, with ``ContractError/allLayersFailed(_:)``.
    case failed(ContractError)
    /// The request's deadline passed before the engine finished; the engine's work was cancelled.
    case expired
    /// The task running the request was cancelled (cancel message, supersession, shutdown, revocation):
    /// whoever cancelled it knows why and answers for it.
    case cancelled
}

extension ResultMessage {
    /// This result as the answer to `request`: its requestId, taskId and receivedAt; the layers, finish time and
    /// worker stay. For a request that joined another request's run (same targets and query).
    func addressed(to request: QueryRequest) -> ResultMessage {
        var copy = self
        copy.requestId = request.requestId
        copy.taskId = request.taskId
        copy.receivedAt = request.receivedAt
        return copy
    }
}
