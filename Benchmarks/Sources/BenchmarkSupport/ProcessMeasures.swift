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
