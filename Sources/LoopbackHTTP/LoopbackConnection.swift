internal import NIOCore
import Synchronization

/// One client connection as the responder sees it: the handler running for it, which is cancelled as soon as
/// the client goes away, and whether the server closed it on purpose (a body cut short).
final class LoopbackConnection: Sendable {
    let channel: any Channel

    private struct Running {
        var cancel: (@Sendable () -> Void)?
        var closed = false
        var closedOnPurpose = false
    }

    private let running = Mutex(Running())

    init(channel: any Channel) {
        self.channel = channel
    }

    /// A connection that closed before its request's responder ran: ``run(_:with:)`` cancels the handler at once.
    init(closed channel: any Channel) {
        self.channel = channel
        running.withLock { $0.closed = true }
    }

    /// Runs `handler` in a task of its own, so that ``closed()`` (called from the event loop) can cancel it.
    func run(
        _ request: LoopbackRequest, with handler: @escaping LoopbackHTTPServer.Handler
    ) async throws -> LoopbackResponse {
        let task = Task { try await handler(request) }
        let open = running.withLock { running in
            running.cancel = { task.cancel() }
            return !running.closed
        }
        if !open { task.cancel() }
        defer { running.withLock { $0.cancel = nil } }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// The channel closed: cancels the running handler.
    func closed() {
        let cancel = running.withLock { running in
            running.closed = true
            return running.cancel
        }
        cancel?()
    }

    var isClosed: Bool { running.withLock { $0.closed } }

    /// The server closes the connection mid-response on purpose (``LoopbackResponseCutShort``, a failing body
    /// producer): the response is not counted as abandoned by the client.
    func closeOnPurpose() { running.withLock { $0.closedOnPurpose = true } }

    var wasClosedOnPurpose: Bool { running.withLock { $0.closedOnPurpose } }
}
