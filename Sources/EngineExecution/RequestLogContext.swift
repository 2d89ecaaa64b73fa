package import Logging

/// The request a run serves, for the engines' log lines: the worker sets it around each run, and a metadata
/// provider on the engines' logger (only theirs) adds it to every line they write: retries, paging repairs,
/// OGC warnings, debug request lines, with no per-site edits.
///
/// Only on the engines' logger: a provider on the process's logger would put every per-request status line
/// on the handler's slow dictionary path (`JSONStatusLine` declines a handler with a provider).
///
/// Task-locals reach a run's child tasks and its `Task {}`s, not detached tasks. Work shared by several
/// requests (a metadata load, a token refresh) clears it (``withoutRequest(_:)``): a line there belongs to
/// no single request.
package enum RequestLogContext {
    /// The run the current task serves: kept as plain values, so a run that logs nothing builds no metadata.
    package struct Identity: Sendable {
        package var run: UInt64
        package var requestId: String
        package var taskId: String

        package init(run: UInt64, requestId: String, taskId: String) {
            self.run = run
            self.requestId = requestId
            self.taskId = taskId
        }
    }

    /// The current run's identity; `nil` outside runs.
    @TaskLocal package static var current: Identity?

    /// Adds `run`, `requestId` and `taskId` to each line of a logger whose handler has it as its metadata
    /// provider (the same keys and string values as the worker's `started` status line).
    package static let provider = Logger.MetadataProvider {
        guard let current else { return [:] }
        return ["run": .string(String(current.run)), "requestId": .string(current.requestId), "taskId": .string(current.taskId)]
    }

    /// Runs `body` with no request in context: for work shared by several requests.
    package static func withoutRequest<T>(_ body: () throws -> T) rethrows -> T {
        try $current.withValue(nil, operation: body)
    }
}
