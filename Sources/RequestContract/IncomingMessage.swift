package import FeatureQuerySupport

/// What one message on the requests topic is, once read: a query to run, a cancel, or a rejection to answer.
///
/// Reading never throws and never crashes: every possible value of a message maps to exactly one of these,
/// so the worker can always answer (and commit the offset).
package enum IncomingMessage: Sendable, Hashable {
    /// A valid request: run it.
    case query(QueryRequest)
    /// A valid cancel: stop the task's in-flight request(s), each answered `cancelled`. No outcome of its own.
    case cancel(taskId: String)
    /// Not a valid request or cancel: answer it `rejected` on the errors topic.
    case rejected(RejectedRequest)
}

/// Why a message was refused, with the ids it carried when they could be read.
///
/// The ids are read even when something else is wrong (an unknown field, a bad where clause), so the
/// producer can match the rejection to its request; each is `nil` only when absent or itself invalid.
package struct RejectedRequest: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, to branch on.
    package var code: ContractError.Code
    /// What is wrong and where, for a person: `query.extent.xmin: expected a number, found the string "1"`.
    package var message: String
    /// The message's `requestId`, when it is present and valid.
    package var requestId: String?
    /// The message's `taskId` (or, when it has none, its `requestId`), when present and valid.
    package var taskId: String?
    /// Facts for programs: always `path` (the JSON path of the offending field) when the problem is in one
    /// place, plus code-specific members (`field`, `column`, `limit`, ...). `nil` when there are none.
    package var details: ParsedJSON?

    /// A rejection; the decoder makes these.
    package init(
        code: ContractError.Code, message: String, requestId: String? = nil, taskId: String? = nil,
        details: ParsedJSON? = nil
    ) {
        self.code = code
        self.message = message
        self.requestId = requestId
        self.taskId = taskId
        self.details = details
    }

    /// The `error` object of the rejection's outcome (never retryable: the same message fails the same way).
    package var error: ContractError {
        ContractError(code, message, retryable: false, details: details)
    }

    /// The JSON path of the offending field (`query.extent.xmin`), when the problem is in one place.
    package var path: String? {
        if case .string(let path)? = details?["path"] { return path }
        return nil
    }

    package var description: String { "RejectedRequest(\(code)): \(message)" }
}
