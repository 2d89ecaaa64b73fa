#if canImport(Glibc)
import Glibc
#endif

/// The middle value (the mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The value at percentile `p` (0...1) by nearest rank; 0 for none.
func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
    return sorted[min(rank, sorted.count) - 1]
}

extension Duration {
    /// The duration in milliseconds, as a Double.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }

    /// The duration in seconds, as a Double.
    var seconds: Double { milliseconds / 1e3 }
}

/// Maps `ContinuousClock` instants to the real-time clock (`CLOCK_REALTIME`, what the worker's JSON log
/// lines are stamped with), from one pair of readings taken back to back.
///
/// Both clocks run at the same rate over the seconds a benchmark lasts, so the offset read once holds to
/// well under a microsecond per second (NTP slews at most 500 ppm).
struct ClockMapping: Sendable {
    let instant: ContinuousClock.Instant
    let realtimeNanoseconds: Int64

    init() {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        instant = ContinuousClock.now
        realtimeNanoseconds = Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// An instant as real-time milliseconds since the epoch (fractional).
    func realtimeMilliseconds(_ other: ContinuousClock.Instant) -> Double {
        Double(realtimeNanoseconds) / 1e6 + (other - instant).milliseconds
    }
}
