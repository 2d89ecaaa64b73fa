import BenchmarkSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// This process's peak resident set size (`VmHWM` in `/proc/self/status`) in KiB, or getrusage's
/// `ru_maxrss` where /proc is not there. VmHWM comes first because Linux carries `ru_maxrss` across
/// `execve`: a child of a large driver would report the driver's peak.
func peakRSSKiB() -> Int {
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let value = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap({ Int($0) })
    {
        return value
    }
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// The middle value (the mean of the middle two for an even count); 0 for none.
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return 0 }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// KiB as MB (10^6 bytes), for tables.
func megabytes(kib: Double) -> Double { kib * 1024 / 1e6 }

/// Writes `text` to a new file at `path` without copying it into a `Data` first.
func writeFile(_ text: inout String, to path: String) throws {
    guard let file = fopen(path, "w") else { throw BenchmarkError("cannot create \(path): errno \(errno)") }
    defer { fclose(file) }
    let written = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) }
    guard written == text.utf8.count else { throw BenchmarkError("short write to \(path)") }
}

/// Writes bytes to `path`.
func writeFile(_ bytes: [UInt8], to path: String) throws {
    guard let file = fopen(path, "w") else { throw BenchmarkError("cannot create \(path): errno \(errno)") }
    defer { fclose(file) }
    let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    guard written == bytes.count else { throw BenchmarkError("short write to \(path)") }
}

/// Writes sorted object ids to `path`, one per line: what the driver compares between the sides.
func writeIDs(_ ids: [Int64], to path: String) throws {
    var text = ""
    text.reserveCapacity(ids.count * 9)
    for id in ids.sorted() {
        text += String(id)
        text += "\n"
    }
    try writeFile(&text, to: path)
}
