import JSONLogging
package import Logging
import Synchronization

/// The last lines a worker logged, kept in memory: a test whose outcomes do not all arrive shows what the worker
/// did before it gave up waiting, instead of leaving nothing to read (the harness used to log at `critical`).
///
/// Bounded (the oldest lines go first), so a long suite costs a fixed amount of memory.
package final class RecentLogLines: Sendable {
    private struct Ring {
        var lines: [String] = []
        var next = 0
        var dropped = 0
    }

    private let ring = Mutex(Ring())
    /// How many lines are kept.
    private let limit: Int

    package init(limit: Int = 400) {
        self.limit = max(1, limit)
    }

    /// A logger at `level` writing JSON lines (the production handler's) into this ring.
    package func logger(label: String = "worker-e2e", level: Logger.Level = .info) -> Logger {
        let sink = JSONLogSink { line in self.append(String(decoding: line, as: UTF8.self)) }
        var logger = Logger(label: label) { label in JSONLogHandler(label: label, sink: sink) }
        logger.logLevel = level
        return logger
    }

    private func append(_ line: String) {
        let limit = self.limit
        ring.withLock { ring in
            if ring.lines.count < limit {
                ring.lines.append(line)
            } else {
                ring.lines[ring.next] = line
                ring.next = (ring.next + 1) % limit
                ring.dropped += 1
            }
        }
    }

    /// The kept lines as one text, oldest first, saying how many older ones were dropped.
    package var text: String {
        let (lines, dropped) = ring.withLock { (Array($0.lines[$0.next...] + $0.lines[..<$0.next]), $0.dropped) }
        if lines.isEmpty { return "(the worker logged nothing at this level)" }
        let header = dropped > 0 ? "(\(dropped) older lines dropped)\n" : ""
        return header + lines.joined(separator: "\n")
    }
}
