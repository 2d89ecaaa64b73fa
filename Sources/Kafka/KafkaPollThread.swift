import Foundation
import ServiceLifecycle
import Synchronization

/// Runs a blocking loop on a thread of its own, so that librdkafka's blocking polls never occupy one of
/// Swift's cooperative threads (there are only as many as cores).
///
/// The work a thread runs captures the client (its `rd_kafka_t`). Whoever awaits the thread may destroy the
/// client as soon as the await returns, so the thread lets go of the work, and with it the client, before it
/// resumes the awaiting task: otherwise the client's last reference could be dropped on the finishing thread,
/// racing with (or outliving) the owner's teardown.
enum KafkaPollThread {
    /// Runs `body` on a thread of its own; returns once it has returned and the thread has let go of it.
    static func run(name: String, _ body: @escaping @Sendable () -> Void) async {
        await call(name: name, body)
    }

    /// A client's `Service.run()`: the poll loop on its own thread until graceful shutdown or cancellation
    /// calls `stop`, then the client's fatal error, if librdkafka reported one.
    static func runService(
        name: String,
        handle: RDKafkaHandle,
        loop: @escaping @Sendable () -> Void,
        stop: @escaping @Sendable () -> Void
    ) async throws(KafkaError) {
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await run(name: name, loop)
            } onGracefulShutdown: {
                stop()
            }
        } onCancel: {
            stop()
        }
        if let fatal = handle.context.fatalError.withLock({ $0 }) { throw fatal }
    }

    /// Runs one blocking call on its own thread and returns its result.
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
