import Foundation
import ServiceLifecycle

/// Runs a blocking loop on a thread of its own, so that librdkafka's blocking polls never occupy one of
/// Swift's cooperative threads (there are only as many as cores).
enum KafkaPollThread {
    static func run(name: String, _ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                body()
                continuation.resume()
            }
            thread.name = name
            thread.start()
        }
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
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = name
            thread.start()
        }
    }
}
