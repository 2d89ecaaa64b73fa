import Synchronization

/// Where a transfer's response goes, and the one place its outcome is handed over (exactly once): the
/// whole response, or the error, resumes the caller's continuation.
final class CurlResponseSink: Sendable {
    private struct State {
        var waiter: CheckedContinuation<HTTPResponse, any Error>?
        var ended = false
    }

    private let state = Mutex(State())

    func setWaiter(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        state.withLock { $0.waiter = continuation }
    }

    /// The transfer ended (loop thread, or the client for a transfer that never started). Later calls do
    /// nothing.
    func complete(_ result: Result<HTTPResponse, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<HTTPResponse, any Error>? in
            defer { state.waiter = nil }
            guard !state.ended else { return nil }
            state.ended = true
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}
