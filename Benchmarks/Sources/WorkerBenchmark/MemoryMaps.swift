import BenchmarkSupport
import Foundation

/// Where a process's resident memory sits, from `/proc/PID/smaps`: evidence of what holds it, read from
/// outside without touching the process.
///
/// - `heap`: the main malloc arena (`[heap]`, grown with brk).
/// - `arenas`: glibc's other malloc arenas. Each is an mmap'd heap aligned to 64 MiB (HEAP_MAX_SIZE on 64-bit),
///   created when a thread finds the existing arenas locked: up to 8 per CPU by default (`MALLOC_ARENA_MAX`).
///   Memory freed in one stays resident there unless trimmed.
/// - `otherAnonymous`: anonymous mappings that are not arenas: allocations above the mmap threshold, thread
///   stacks, librdkafka's and libcurl's large buffers.
/// - `files`: the executable and shared libraries (code and their data), shared with other processes.
struct MemoryMaps {
    var heapKiB = 0
    var arenasKiB = 0
    var arenaCount = 0
    var otherAnonymousKiB = 0
    var filesKiB = 0

    /// 64 MiB: glibc's HEAP_MAX_SIZE on 64-bit (2 × DEFAULT_MMAP_THRESHOLD_MAX), the alignment of every
    /// non-main arena's heap.
    static let arenaAlignment: UInt64 = 64 << 20

    /// The process's mappings by kind; nil when `/proc/PID/smaps` is unreadable.
    static func read(pid: Int32) -> MemoryMaps? {
        // Read to the end: procfs reports a size of 0, and a single read returns only the first page or so.
        guard let data = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readDataToEndOfFile(), !data.isEmpty else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        var maps = MemoryMaps()
        var kind: Kind?
        for line in text.split(separator: "\n") {
            if let header = Self.header(line) {
                kind = header
                if header == .arena { maps.arenaCount += 1 }
            } else if line.hasPrefix("Rss:"), let kind {
                let kib = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) } ?? 0
                switch kind {
                case .heap: maps.heapKiB += kib
                case .arena: maps.arenasKiB += kib
                case .otherAnonymous: maps.otherAnonymousKiB += kib
                case .file: maps.filesKiB += kib
                }
            }
        }
        return maps
    }

    private enum Kind { case heap, arena, otherAnonymous, file }

    /// The kind of a mapping header line (`7f00...-7f00... rw-p 00000000 00:00 0   [heap]`); nil for the
    /// lines of fields under it.
    private static func header(_ line: Substring) -> Kind? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5, let dash = fields[0].firstIndex(of: "-"),
            let start = UInt64(fields[0][..<dash], radix: 16), fields[1].count == 4
        else { return nil }
        let name = fields.count == 6 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
        if name == "[heap]" { return .heap }
        if name.hasPrefix("/") { return .file }
        // A readable arena heap starts on the alignment; its unused rest is a separate PROT_NONE mapping.
        if name.isEmpty, fields[1].hasPrefix("rw"), start % arenaAlignment == 0 { return .arena }
        return .otherAnonymous
    }

    /// One line for the run's output.
    var summary: String {
        func mb(_ kib: Int) -> String { format(megabytes(kib: Double(kib)), 1) }
        return "heap \(mb(heapKiB)) MB, \(arenaCount) other malloc arena\(arenaCount == 1 ? "" : "s") \(mb(arenasKiB)) MB, "
            + "other anonymous \(mb(otherAnonymousKiB)) MB, files \(mb(filesKiB)) MB"
    }
}

/// The number of threads of a process (`Threads:` of `/proc/PID/status`).
func threadCount(pid: Int32) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("Threads:") {
        return line.split(separator: "\t", omittingEmptySubsequences: true).dropFirst().first
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
    return nil
}
