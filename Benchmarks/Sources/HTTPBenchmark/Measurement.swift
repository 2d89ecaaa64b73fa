import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The clients compared, in the order the table lists them.
enum Client: String, CaseIterable, Hashable, Sendable {
    case wrk
    /// CurlHTTP with the load's tasks on the client's loop thread (`HTTPClient.taskExecutor`), as the
    /// worker runs its requests: the row of the targets.
    case curl
    /// CurlHTTP with the load's tasks on the cooperative pool: for information (the hop per exchange).
    case curlPool = "curl-pool"
    case ahc
    /// libcurl alone (Benchmarks/c/curl_multi_bench.c) with --libcurl-loop/--libcurl-handles (by default
    /// perform + reset): the reference of the CurlHTTP/libcurl targets.
    case libcurl
    /// libcurl alone on its fastest loop, curl_multi_socket_action + epoll with handles reused: for
    /// information, in no target.
    case libcurlSocket = "libcurl-socket"

    var name: String {
        switch self {
        case .wrk: "wrk"
        case .curl: "CurlHTTP"
        case .curlPool: "CurlHTTP (pool)"
        case .ahc: "AsyncHTTPClient"
        case .libcurl: "libcurl (C)"
        case .libcurlSocket: "libcurl sock (C)"
        }
    }
}

/// One timed run of one client at one concurrency.
struct Measurement: Sendable {
    var requests: Int
    var seconds: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    /// CPU time of the client's process (all threads) over the timed window, if known.
    var clientCPUSeconds: Double?
    /// CPU time of the server's worker over the timed window, if known.
    var serverCPUSeconds: Double?

    var requestsPerSecond: Double { seconds > 0 ? Double(requests) / seconds : 0 }
    var clientCPUMicrosecondsPerRequest: Double? {
        clientCPUSeconds.map { requests > 0 ? $0 * 1e6 / Double(requests) : 0 }
    }
    var serverCPUMicrosecondsPerRequest: Double? {
        serverCPUSeconds.map { requests > 0 ? $0 * 1e6 / Double(requests) : 0 }
    }
}

/// CPU time of this process (all threads), in seconds.
func processCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// CPU time (user + system) of the children this process has waited for, in seconds.
func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// CPU time (user + system) of another process, from `/proc/PID/stat`; `nil` if it can't be read.
func processCPUSeconds(pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
    else { return nil }
    // Fields after "(comm)": state is field 3, utime 14, stime 15 (1-based over the whole line).
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    return (user + system) / (ticks > 0 ? ticks : 100)
}

/// The value at percentile `p` (0...1) of sorted nanosecond samples, nearest rank, in milliseconds.
func percentileMilliseconds(_ sorted: [Int64], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = max(1, Int((p * Double(sorted.count)).rounded(.up)))
    return Double(sorted[min(rank, sorted.count) - 1]) / 1e6
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var seconds: Double { Double(nanoseconds) / 1e9 }
}
