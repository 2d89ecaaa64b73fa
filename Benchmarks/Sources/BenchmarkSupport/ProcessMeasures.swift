internal import Foundation

/// This process's CPU time and peak resident set size, for benchmarks that time their own work in process
/// (statistics-benchmark, related-benchmark).
package enum ProcessMeasures {
    /// User and system CPU seconds of this process so far.
    package static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// `VmHWM` from /proc/self/status, in KiB (not `ru_maxrss`, which Linux carries across `execve`).
    package static func peakRSSKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// The runs of one in-process benchmark: each run's wall time and this process's CPU, and the last run's value.
package struct TimedRuns<Value> {
    package var walls: [Double] = []
    package var cpus: [Double] = []
    package var last: Value

    package var medianWall: Double { walls.sorted()[walls.count / 2] }
    package var medianCPU: Double { cpus.sorted()[cpus.count / 2] }
    /// Every run's wall time, comma separated (for the `runs=` field of a RESULT line).
    package var wallsText: String { walls.map { format($0, 3) }.joined(separator: ",") }
}

/// Runs `body` `repetitions` times (at least once), one after another, timing each.
package func timedRuns<Value>(_ repetitions: Int, _ body: () async throws -> Value) async throws -> TimedRuns<Value> {
    var walls: [Double] = []
    var cpus: [Double] = []
    var last: Value?
    for _ in 0..<max(1, repetitions) {
        let cpuBefore = ProcessMeasures.cpuSeconds()
        let started = ContinuousClock.now
        last = try await body()
        let wall = ContinuousClock.now - started
        cpus.append(ProcessMeasures.cpuSeconds() - cpuBefore)
        walls.append(Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
    }
    guard let last else { throw BenchmarkError("no run") }
    return TimedRuns(walls: walls, cpus: cpus, last: last)
}
