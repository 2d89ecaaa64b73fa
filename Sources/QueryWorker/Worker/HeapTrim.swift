import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// glibc's `malloc_trim(0)`: freed memory the allocator keeps in its arenas, given back to the system.
///
/// Why a worker needs it: after a burst (a rebalance that hands it a stopped peer's partitions, an outage's
/// backlog) a worker frees what the burst allocated, but glibc keeps the freed chunks in the arena that made
/// them for reuse, and ``MallocTuning``'s top pad keeps an emptied heap on purpose. The resident size then
/// stays a step higher for the rest of the run: the exactly-once soak's w1 went from 59.5 to 63.0 MB when it
/// took a killed peer's partitions, and stayed there. An operator's memory limit sees the resident size, not
/// the allocator's free lists. `malloc_trim(0)` tells the kernel that the free pages inside every arena are
/// not needed (`MADV_DONTNEED`), so they stop counting as resident until they are used again: by hand, it gave
/// back 2.7 MB of that 3.5 MB step.
package enum HeapTrim {
    /// glibc's `malloc_trim` (`<malloc.h>`, which the Glibc module does not import), looked up at run time:
    /// `nil` on a C library without it.
    private typealias MallocTrim = @convention(c) (Int) -> Int32
    private static let mallocTrim: MallocTrim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
        #else
        return nil
        #endif
    }()

    /// What one trim did.
    package struct Result: Sendable, Equatable {
        /// Resident bytes before minus after (0 when other threads' allocations outgrew what was given back).
        package var releasedBytes: Int
        /// How long the trim took (it holds each arena's lock while it walks that arena's free chunks).
        package var duration: Duration
    }

    /// Trims every arena; `nil` without glibc's `malloc_trim` or `/proc/self/statm`.
    package static func trim() -> Result? {
        guard let mallocTrim, let before = residentBytes() else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        _ = mallocTrim(0)
        let duration = clock.now - started
        guard let after = residentBytes() else { return nil }
        return Result(releasedBytes: max(0, before - after), duration: duration)
    }

    /// This process's resident size: `/proc/self/statm`'s second field, in pages.
    package static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        #if canImport(Glibc)
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }
}
