#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real-time clock (`CLOCK_REALTIME`), read in the units the package uses: milliseconds since the Unix
/// epoch (deadlines, outcome and log timestamps, `CURRENT_TIMESTAMP` in clauses) and seconds (`Retry-After`
/// dates).
///
/// One reader instead of a `clock_gettime` per module, and no Foundation `Date`. Durations are measured with
/// `ContinuousClock` instead: the wall clock can jump.
package enum WallClock {
    /// Milliseconds since 1970-01-01T00:00:00Z, truncated.
    package static func nowMilliseconds() -> Int64 {
        let now = timeSpec()
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }

    /// Whole seconds since 1970-01-01T00:00:00Z.
    package static func nowSeconds() -> Int64 {
        Int64(timeSpec().tv_sec)
    }

    private static func timeSpec() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }
}
