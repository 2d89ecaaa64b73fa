#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where finished log lines go.
///
/// A sink receives one complete line (the JSON object and its `\n`) per call. The file-descriptor sinks
/// write each line with one `write(2)` under a lock shared by every handler that uses the sink, so lines
/// from concurrent tasks never interleave; a test passes a closure that collects the lines instead.
package struct JSONLogSink: Sendable {
    private let writeLine: @Sendable ([UInt8]) -> Void

    /// A sink that hands each line to `write`. `write` may be called from many threads at once.
    package init(_ write: @escaping @Sendable (_ line: [UInt8]) -> Void) {
        self.writeLine = write
    }

    /// Standard output: what container runtimes and log shippers collect. One process-wide writer, so
    /// every logger that logs here shares one lock.
    package static let standardOutput = JSONLogSink(descriptor: FileDescriptorWriter(descriptor: 1))

    init(descriptor writer: FileDescriptorWriter) {
        self.writeLine = { writer.write($0) }
    }

    func write(_ line: [UInt8]) { writeLine(line) }
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
            line.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    #if canImport(Glibc)
                    let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                    #else
                    let written = Darwin.write(descriptor, base + offset, buffer.count - offset)
                    #endif
                    if written > 0 {
                        offset += written
                    } else if written < 0 && errno == EINTR {
                        continue
                    } else {
                        return
                    }
                }
            }
        }
    }
}
