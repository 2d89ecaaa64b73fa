import Synchronization

/// Where a transfer's response goes, and the one place its outcome is handed over (exactly once): the
/// whole response, or the error, resumes the caller's continuation.
///
/// Part of its transfer (a noncopyable field, not an object of its own), and the continuation is an
/// `UnsafeContinuation`: every exchange makes one, and the exactly-once rule that `CheckedContinuation`
/// would check at run time (with an allocation per exchange) is this type's `ended` flag.
struct CurlResponseSink: ~Copyable, Sendable {
    /// Internal, not private: Swift 6.3.1 fails to link a private type nested in this noncopyable struct.
    struct State {
        var waiter: UnsafeContinuation<HTTPResponse, any Error>?
        var ended = false
    }

    private let state = Mutex(State())

    func setWaiter(_ continuation: UnsafeContinuation<HTTPResponse, any Error>) {
        state.withLock { $0.waiter = continuation }
    }

    /// The transfer ended (loop thread, or the client for a transfer that never started). Later calls do
    /// nothing.
    func complete(_ result: Result<HTTPResponse, any Error>) {
        let waiter = state.withLock { state -> UnsafeContinuation<HTTPResponse, any Error>? in
            defer { state.waiter = nil }
            guard !state.ended else { return nil }
            state.ended = true
            return state.waiter
        }
        waiter?.resume(with: result)
    }
}
