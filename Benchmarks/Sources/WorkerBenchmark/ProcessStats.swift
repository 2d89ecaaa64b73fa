import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What `/proc` says about a process: peak and current resident set, and CPU time.
///
/// Peak RSS is `VmHWM` of `/proc/PID/status`, not `getrusage`'s `ru_maxrss`: Linux carries `ru_maxrss`
/// across `execve`, so a child started from a large parent would report the parent's peak. `VmHWM` belongs
/// to the address space, which `execve` replaces.
enum ProcessStats {
    /// A `kB` field of `/proc/PID/status` (`VmHWM`, `VmRSS`), in KiB; nil when unreadable.
    static func statusKiB(pid: Int32, field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// Peak resident set (`VmHWM`) in KiB.
    static func peakRSSKiB(pid: Int32) -> Int? { statusKiB(pid: pid, field: "VmHWM") }

    /// Current resident set (`VmRSS`) in KiB.
    static func rssKiB(pid: Int32) -> Int? { statusKiB(pid: pid, field: "VmRSS") }

    /// User + system CPU time of a process (all its threads), from `/proc/PID/stat`, in seconds.
    static func cpuSeconds(pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After "(comm)": state is field 3; utime is 14 and stime 15 (1-based over the whole line).
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user + system) / (ticks > 0 ? ticks : 100)
    }

    /// CPU time of this process (every thread), in seconds.
    static func ownCPUSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// CPU time of the children this process has waited for (wrk), in seconds.
    static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

/// KiB as MB (10^6 bytes), for tables.
func megabytes(kib: Double) -> Double { kib * 1024 / 1e6 }
