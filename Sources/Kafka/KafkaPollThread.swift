import Foundation
import ServiceLifecycle
import Synchronization
import FeatureQuerySupport
import Logging

/// Runs a blocking loop on a thread of its own, so that librdkafka's blocking polls never occupy one of
/// Swift's cooperative threads (there are only as many as cores).
///
/// The work a thread runs captures the client (its `rd_kafka_t`). Whoever awaits the thread may destroy the
/// client as soon as the await returns, so the thread lets go of the work, and with it the client, before it
/// resumes the awaiting task: otherwise the client's last reference could be dropped on the finishing thread,
/// racing with (or outliving) the owner's teardown.
enum KafkaPollThread {
    /// A client's `Service.run()`: the poll loop on `thread` until graceful shutdown or cancellation calls
    /// `stop` (the client's `triggerGracefulShutdown()`, which tells `thread` too), then the client's fatal
    /// error, if librdkafka reported one. Returns whether the loop finished (see ``KafkaServiceThread``).
    @discardableResult
    static func runService(
        name: String,
        handle: RDKafkaHandle,
        thread: KafkaServiceThread,
        loop: @escaping @Sendable () -> Void,
        stop: @escaping @Sendable () -> Void
    ) async throws(KafkaError) -> Bool {
        let finished = await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await thread.run(name: name, loop)
            } onGracefulShutdown: {
                stop()
            }
        } onCancel: {
            stop()
        }
        if !finished {
            handle.context.logger.warning(
                "the client did not close in time; leaving it to finish on its own thread",
                metadata: ["thread": "\(name)", "timeoutMs": .stringConvertible(thread.stopTimeout.clampedMilliseconds)])
            return false
        }
        if let fatal = handle.context.fatalError.withLock({ $0 }) { throw fatal }
        return true
    }

    /// Runs one blocking call on its own thread and returns its result, once the thread has let go of `body`.
    static func call<T: Sendable>(name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let work = BorrowedWork(body, continuation)
            // The thread's closure holds only `work`, which gives the body up before resuming the caller.
            let thread = Thread { work.run() }
            thread.name = name
            thread.start()
        }
    }
}

/// A client's poll loop on a thread of its own, and the bound on waiting for it once it has been told to stop.
///
/// After the stop, the loop closes the client (a consumer's close, a producer's flush), and librdkafka can
/// block there for as long as the cluster stays unreachable: a consumer's close waits for its final commit and
/// for leaving the group, and with a cluster that stopped answering (librdkafka 2.0.2) it never returns. So
/// ``run(name:_:)`` returns at most ``stopTimeout`` after ``stopRequested()``, while the loop goes on alone.
/// The loop's closure holds the client, so its `rd_kafka_t` is destroyed only when the blocked call has
/// returned, on that thread, never under it; a process that exits meanwhile simply ends the thread.
///
/// The awaiting task is resumed once, by whichever comes first: the loop's end (after the thread has let go
/// of the loop's closure, as ``BorrowedWork`` does) or the bound.
final class KafkaServiceThread: Sendable {
    private struct State {
        var body: (@Sendable () -> Void)?
        var continuation: CheckedContinuation<Bool, Never>?
        var abandoned = false
        var stopRequested = false
    }

    let stopTimeout: Duration
    private let state = Mutex(State())

    init(stopTimeout: Duration) {
        self.stopTimeout = stopTimeout
    }

    /// Runs `body` on a new thread; true when it finished, false when ``stopTimeout`` passed after the stop
    /// request first. Once per thread object.
    func run(name: String, _ body: @escaping @Sendable () -> Void) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let abandoned = state.withLock { state -> Bool in
                state.body = body
                guard !state.abandoned else { return true }
                state.continuation = continuation
                return false
            }
            // Even when abandoned already, the loop runs: it sees the stop request and closes the client.
            let thread = Thread { self.runOnThread() }
            thread.name = name
            thread.start()
            if abandoned { continuation.resume(returning: false) }
        }
    }

    /// The loop has been told to stop (the first call counts): from now on ``run(name:_:)`` waits at most
    /// ``stopTimeout``.
    func stopRequested() {
        let first = state.withLock { state -> Bool in
            defer { state.stopRequested = true }
            return !state.stopRequested
        }
        guard first else { return }
        DispatchQueue.global().asyncAfter(deadline: .after(stopTimeout)) { self.abandon() }
    }

    /// Resumes the awaiting task now, leaving the loop to finish on its thread.
    private func abandon() {
        let continuation = state.withLock { state in
            state.abandoned = true
            return state.continuation.take()
        }
        continuation?.resume(returning: false)
    }

    private func runOnThread() {
        callAndRelease()
        state.withLock { $0.continuation.take() }?.resume(returning: true)
    }

    /// Calls the loop once; its closure (and the client it captured) is released when this returns.
    private func callAndRelease() {
        guard let body = state.withLock({ $0.body.take() }) else { return }
        body()
    }
}

/// A poll thread's body and the continuation of the task awaiting it, handed over once: ``run()`` takes the
/// body out, calls it, lets it go, and only then resumes the task.
private final class BorrowedWork<T: Sendable>: Sendable {
    private let state: Mutex<(body: (@Sendable () -> T)?, continuation: CheckedContinuation<T, Never>?)>

    init(_ body: @escaping @Sendable () -> T, _ continuation: CheckedContinuation<T, Never>) {
        state = Mutex((body, continuation))
    }

    /// Calls the body once (a second call does nothing), then resumes the awaiting task as the last step.
    func run() {
        guard let (result, continuation) = callAndRelease() else { return }
        continuation.resume(returning: result)
    }

    /// Takes the body and the continuation out, and returns the body's result: the body (and what it
    /// captured) is released when this returns, before the caller resumes anyone.
    private func callAndRelease() -> (T, CheckedContinuation<T, Never>)? {
        let taken = state.withLock { state -> ((@Sendable () -> T), CheckedContinuation<T, Never>)? in
            guard let body = state.body.take(), let continuation = state.continuation.take() else { return nil }
            return (body, continuation)
        }
        guard let (body, continuation) = taken else { return nil }
        return (body(), continuation)
    }
}

extension DispatchTime {
    /// Now plus `duration` in whole milliseconds (``Duration/clampedMilliseconds``); a duration whose
    /// nanoseconds overflow `Int64` waits forever instead of trapping or wrapping around to the past.
    static func after(_ duration: Duration) -> DispatchTime {
        let (nanoseconds, overflow) = duration.clampedMilliseconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .distantFuture : .now() + .nanoseconds(Int(clamping: nanoseconds))
    }
}
