#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where finished log lines go.
///
/// A sink receives one complete line (the JSON object and its `\n`) per call, with whether it is urgent
/// (warning and above). Standard output batches lines (``BatchingDescriptorWriter``: an info line waits at most
/// 2 ms, an urgent one is written at once, everything is written at exit); the descriptor sink of
/// ``fileDescriptor(_:)`` writes each line with one `write(2)`. Either way under a lock shared by every handler
/// that uses the sink, so lines from concurrent tasks never interleave; a test passes a closure that collects
/// the lines instead.
package struct JSONLogSink: Sendable {
    private let writeLine: @Sendable ([UInt8], Bool) -> Void
    private let flushLines: @Sendable () -> Void

    /// A sink that hands each line to `write`. `write` may be called from many threads at once.
    package init(_ write: @escaping @Sendable (_ line: [UInt8]) -> Void) {
        self.writeLine = { line, _ in write(line) }
        self.flushLines = {}
    }

    /// Standard output: what container runtimes and log shippers collect. One process-wide writer, so
    /// every logger that logs here shares its lock; what it holds is written at exit.
    package static let standardOutput = JSONLogSink(batching: standardOutputWriter)

    private static let standardOutputWriter: BatchingDescriptorWriter = {
        let writer = BatchingDescriptorWriter(descriptor: 1)
        atexit { JSONLogSink.standardOutputWriter.flush() }
        return writer
    }()

    init(descriptor writer: FileDescriptorWriter) {
        self.writeLine = { line, _ in writer.write(line) }
        self.flushLines = {}
    }

    init(batching writer: BatchingDescriptorWriter) {
        self.writeLine = { line, urgent in writer.write(line, urgent: urgent) }
        self.flushLines = { writer.flush() }
    }

    func write(_ line: [UInt8], urgent: Bool = false) { writeLine(line, urgent) }

    /// Writes every line the sink holds back; returns once they are written. Lines are also written on their
    /// own within milliseconds, and at exit: this is for a caller that must see them written now.
    package func flush() { flushLines() }
}

/// Writes whole lines to a descriptor, one at a time.
///
/// One `write(2)` per line in the normal case. A partial write (a full pipe interrupted by a signal) is
/// continued under the same lock, so even then no other line can get in between. A line that can't be
/// written (closed descriptor, `EAGAIN` on a non-blocking one) is dropped: logging must never stop the worker.
final class FileDescriptorWriter: Sendable {
    private let descriptor: Int32
    private let lock = Mutex<Void>(())

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ line: [UInt8]) {
        lock.withLock { _ in
            line.withUnsafeBytes { writeAll($0, to: descriptor) }
        }
    }
}
