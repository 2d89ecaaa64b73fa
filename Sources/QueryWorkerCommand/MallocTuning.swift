#if canImport(Glibc)
import Glibc
#endif

/// glibc malloc settings for a worker at load, applied by `run` and `demo` before any thread starts.
///
/// Why: glibc gives threads their own arenas, and a thread arena lives in 64 MiB heaps that it makes
/// readable a page at a time (one `mprotect` call per growth past the heap's high-water mark). With glibc's
/// defaults, a heap that empties is unmapped at once and the next growth maps a new one and grows it again
/// page by page: at load the worker made ~1.1 `mprotect` calls per `count` request (`strace -c -f` on
/// `Benchmarks/profile-worker.sh`), each with the page faults of pages touched anew. A top pad of one heap's
/// size keeps an emptied heap (glibc deletes one only when more than the pad would be left free): with it
/// the calls stop (2 in 3 s). The pad does not raise the resident size by itself (untouched pages are not
/// resident), and the peak under load stayed the same (~124 MB `VmHWM` in that run).
///
/// Setting the trim threshold fixes glibc's mmap threshold too, so it is set explicitly: blocks of 4 MiB and
/// more (large response bodies) are still mapped and unmapped on their own, as glibc's dynamic threshold
/// would have them after the first large one; free memory above 8 MiB at an arena's top is given back.
///
/// An operator's own `GLIBC_TUNABLES` malloc settings win: nothing is changed when they name any.
enum MallocTuning {
    static let trimThreshold: Int32 = 8 << 20
    static let topPad: Int32 = 64 << 20
    static let mmapThreshold: Int32 = 4 << 20

    /// glibc's `mallopt` and its parameters (`<malloc.h>`, which the Glibc module does not import), looked up
    /// at run time: `nil` on a C library without it.
    private typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
    private static let trimThresholdParameter: Int32 = -1  // M_TRIM_THRESHOLD
    private static let topPadParameter: Int32 = -2  // M_TOP_PAD
    private static let mmapThresholdParameter: Int32 = -3  // M_MMAP_THRESHOLD

    /// Applies the settings unless the environment sets malloc tunables; returns whether it did.
    @discardableResult
    static func apply(environment: [String: String]) -> Bool {
        #if canImport(Glibc)
        if let tunables = environment["GLIBC_TUNABLES"], tunables.contains("glibc.malloc.") { return false }
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return false }
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        // mallopt returns 1 on success.
        return mallopt(mmapThresholdParameter, mmapThreshold) == 1 && mallopt(trimThresholdParameter, trimThreshold) == 1
            && mallopt(topPadParameter, topPad) == 1
        #else
        return false
        #endif
    }
}
