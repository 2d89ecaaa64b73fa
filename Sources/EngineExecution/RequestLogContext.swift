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
    /// `run`, `requestId` and `taskId` of the run the current task serves; empty outside runs.
    @TaskLocal package static var metadata: Logger.Metadata = [:]

    /// Adds ``metadata`` to each line of a logger whose handler has it as its metadata provider.
    package static let provider = Logger.MetadataProvider { metadata }

    /// Runs `body` with no request in context: for work shared by several requests.
    package static func withoutRequest<T>(_ body: () throws -> T) rethrows -> T {
        try $metadata.withValue([:], operation: body)
    }
}
