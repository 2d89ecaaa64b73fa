import BenchmarkSupport
import Foundation

/// Runs Debian's `wrk` (`wrk -tT -cC -dDs --latency URL`) and reads its rate and latency distribution.
struct WrkRunner: Sendable {
    let executable: String
    let url: String
    let serverPID: Int32?

    /// wrk's threads for a concurrency: one for a single connection, two (the cores here) otherwise.
    static func threads(for concurrency: Int) -> Int { min(concurrency, 2) }

    func run(concurrency: Int, seconds: Int) async throws -> Measurement {
        let arguments = [
            "-t\(Self.threads(for: concurrency))", "-c\(concurrency)", "-d\(seconds)s", "--latency", url,
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        let childrenBefore = childrenCPUSeconds()
        let serverBefore = serverPID.flatMap(processCPUSeconds(pid:))
        // Read the pipe on a thread of its own while wrk runs, so a full pipe can't stall it.
        let reader = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }
        let status: Int32 = try await PeerProcess.run(process)
        let serverAfter = serverPID.flatMap(processCPUSeconds(pid:))
        let text = String(decoding: await reader.value, as: UTF8.self)
        guard status == 0 else {
            throw BenchmarkError("wrk \(arguments.joined(separator: " ")) exited with status \(status): \(text)")
        }
        var measurement = try Self.parse(text)
        measurement.clientCPUSeconds = childrenCPUSeconds() - childrenBefore
        if let serverBefore, let serverAfter { measurement.serverCPUSeconds = serverAfter - serverBefore }
        return measurement
    }

    /// Parses wrk's report: `N requests in Xs`, the `50%` and `99%` lines of `--latency`'s distribution, and
    /// fails on errors (`Non-2xx or 3xx responses`, `Socket errors` other than none).
    static func parse(_ text: String) throws -> Measurement {
        var requests: Int?
        var seconds: Double?
        var p50: Double?
        var p99: Double?
        var inDistribution = false
        for rawLine in text.split(separator: "\n") {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Latency Distribution") {
                inDistribution = true
                continue
            }
            if inDistribution, words.count == 2, words[0].hasSuffix("%") {
                if words[0] == "50%" { p50 = milliseconds(String(words[1])) }
                if words[0] == "99%" { p99 = milliseconds(String(words[1])) }
                continue
            }
            inDistribution = false
            // "123456 requests in 10.00s, 200.00MB read"
            if words.count >= 4, words[1] == "requests", words[2] == "in" {
                requests = Int(words[0])
                seconds = milliseconds(String(words[3].trimmingCharacters(in: CharacterSet(charactersIn: ",")))).map { $0 / 1000 }
            }
            if line.hasPrefix("Non-2xx or 3xx responses") || line.hasPrefix("Socket errors") {
                throw BenchmarkError("wrk reported errors: \(line)\n\(text)")
            }
        }
        guard let requests, let seconds, let p50, let p99 else {
            throw BenchmarkError("cannot parse wrk's output:\n\(text)")
        }
        return Measurement(requests: requests, seconds: seconds, p50Milliseconds: p50, p99Milliseconds: p99)
    }

    /// wrk's durations: `47.00us`, `1.23ms`, `2.00s`, `1.00m`; in milliseconds.
    static func milliseconds(_ text: String) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0), ("h", 3_600_000.0)] where text.hasSuffix(unit) {
            guard let value = Double(text.dropLast(unit.count)) else { return nil }
            return value * scale
        }
        return nil
    }
}
