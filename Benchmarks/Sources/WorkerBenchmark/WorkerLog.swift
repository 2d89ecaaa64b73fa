import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The worker's JSON log lines (one object per line on its standard output, sent to a file), read for
/// what the benchmark needs: how many requests have started, and when each request was received.
struct WorkerLog {
    let path: String

    /// The log's lines so far (the worker may still be writing: a partial last line is left out).
    func lines() -> [[UInt8]] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var lines: [[UInt8]] = []
        var start = data.startIndex
        for index in data.indices where data[index] == UInt8(ascii: "\n") {
            lines.append(Array(data[start..<index]))
            start = data.index(after: index)
        }
        return lines
    }

    /// How many lines have this `message`.
    func count(message: String) -> Int {
        lines().reduce(0) { $0 + (OutcomeFields.string("message", in: $1) == message ? 1 : 0) }
    }

    /// Waits (polling) until at least `count` lines have `message`; throws on timeout or if `alive` fails.
    func wait(for count: Int, message: String, timeout: Duration, alive: () throws -> Void) async throws {
        let deadline = ContinuousClock.now + timeout
        while self.count(message: message) < count {
            try alive()
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("the worker logged \(self.count(message: message)) of \(count) '\(message)' lines in \(timeout); log: \(path)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Real-time milliseconds (since the epoch) of each line with `message`, by its `requestId`.
    func timestamps(message: String) -> [String: Int64] {
        var result: [String: Int64] = [:]
        for line in lines() where OutcomeFields.string("message", in: line) == message {
            guard let id = OutcomeFields.string("requestId", in: line), let ts = OutcomeFields.string("ts", in: line),
                let ms = Self.epochMilliseconds(ts)
            else { continue }
            result[id] = ms
        }
        return result
    }

    /// `2025-11-22T04:07:31.042Z` (the JSON log's `ts`: UTC, milliseconds, truncated) as milliseconds since
    /// the epoch.
    static func epochMilliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 24, bytes[23] == UInt8(ascii: "Z") else { return nil }
        func number(_ from: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[from..<(from + length)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2), let millisecond = number(20, 3)
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int64(timegm(&parts)) * 1_000 + Int64(millisecond)
    }
}
