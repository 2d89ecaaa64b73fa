#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock.
func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Runs `body` and returns its result and the seconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = nowNanoseconds()
    let result = try body()
    return (result, Double(nowNanoseconds() - start) / 1e9)
}

/// Latency figures of a set of samples in nanoseconds.
struct LatencySummary {
    var p50: Double
    var p99: Double
    var mean: Double

    /// Nearest-rank percentiles, in milliseconds.
    init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
            return Double(sorted[min(rank, sorted.count) - 1]) / 1e6
        }
        p50 = percentile(0.50)
        p99 = percentile(0.99)
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1e6
    }
}

/// The peak resident set size of this process, in MiB (ru_maxrss is KiB on Linux, bytes on macOS).
func peakResidentMiB() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / (1024 * 1024)
    #endif
}

func format(_ value: Double, _ decimals: Int = 3) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}
