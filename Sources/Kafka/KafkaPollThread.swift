import Foundation

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

    /// Runs one blocking call on its own thread and returns its result.
    static func call<T: Sendable>(name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = name
            thread.start()
        }
    }
}
