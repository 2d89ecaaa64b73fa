import Dispatch
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT for the executable: the first starts a graceful shutdown that ends within a bound, a
/// second stops at once.
///
/// swift-service-lifecycle's group hears a graceful-shutdown signal once and then ignores it, and its
/// cancellation signals must be other signals; an operator (or Docker, or a terminal's second Ctrl-C) sends
/// the same signal again to mean "now". So the signals are handled here, on Dispatch's threads rather than
/// Swift's cooperative pool, so that they work even while every cooperative thread is busy:
/// - the first is delivered to ``first`` (the caller triggers the graceful shutdown) and arms a watchdog
///   thread that exits the process with status 1 when `bound` has passed, whatever is still running;
/// - a second exits the process at once with status 128 + the signal's number (143 for SIGTERM, 130 for
///   SIGINT), after one log line.
///
/// Exiting with `_exit` skips nothing the worker needs: logs are written line by line with `write(2)`, and
/// what the worker did not finish (offsets not committed) is read again by the partitions' next owner.
final class ShutdownSignals {
    /// The first signal's number, once.
    let first: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    /// Installs the handlers: from now on SIGTERM and SIGINT no longer end the process by themselves.
    init(bound: Duration, logger: Logger) {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        first = stream
        let queue = DispatchQueue(label: "query-worker.signals")
        let received = SignalCount()
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if received.increment() == 1 {
                    logger.notice(
                        "signal received; stopping gracefully (send it again to stop at once)",
                        metadata: ["signal": "\(Self.name(number))", "boundSeconds": "\(bound.components.seconds)"])
                    Self.startWatchdog(bound: bound, logger: logger)
                    continuation.yield(number)
                    continuation.finish()
                } else {
                    logger.warning("second signal received; stopping at once", metadata: ["signal": "\(Self.name(number))"])
                    _exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    /// Exits the process with status 1 when `bound` has passed. A thread of its own: neither a blocked
    /// cooperative pool nor a busy Dispatch queue can hold it up.
    private static func startWatchdog(bound: Duration, logger: Logger) {
        let thread = Thread {
            let deadline = ContinuousClock.now + bound
            while ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.1)
            }
            logger.error(
                "shutdown did not finish within its bound; exiting", metadata: ["boundSeconds": "\(bound.components.seconds)"])
            _exit(1)
        }
        thread.name = "shutdown-watchdog"
        thread.start()
    }

    private static func name(_ number: Int32) -> String {
        number == SIGTERM ? "SIGTERM" : number == SIGINT ? "SIGINT" : "\(number)"
    }
}

/// Signals received so far.
private final class SignalCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more and returns the new count.
    func increment() -> Int {
        count.add(1, ordering: .sequentiallyConsistent).newValue
    }
}
