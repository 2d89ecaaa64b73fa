import EngineExecution
import Glibc
import Logging
import Metrics
import MetricsTestKit
import Testing

@testable import QueryWorker

/// ``HeapTrim`` and ``HeapTrimService``: freed memory the allocator keeps is resident until a trim, and not
/// after it.
///
/// Residency is read page by page with `mincore(2)` over the freed blocks themselves, not from the process's
/// resident size, which the other tests running in this process move by more than a test could allocate.
/// Serialized: a trim in one test would give back the other's freed blocks before it looked at them. Nothing
/// else in the test processes trims (the executable's service runs only in `query-worker run`).
@Suite(.serialized) struct HeapTrimTests {
    /// Blocks of 64 KiB: below glibc's mmap threshold (so they come from an arena, as a worker's buffers do),
    /// each with fifteen whole pages inside it.
    static let blockSize = 64 << 10
    static let blockCount = 512

    @Test("Freed blocks stay resident (the allocator keeps them) until a trim gives their pages back")
    func aTrimGivesBackWhatTheAllocatorKept() throws {
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<Self.blockCount {
            guard let block = malloc(Self.blockSize) else { break }
            memset(block, 0x5A, Self.blockSize)
            blocks.append(block)
        }
        // A block allocated after the others keeps them off the arena's top, where free() alone would give
        // memory back: this is the shape a burst leaves (its memory freed below what lives on).
        let keeper = malloc(Self.blockSize)
        defer { free(keeper) }
        try #require(blocks.count == Self.blockCount && keeper != nil)
        for block in blocks { free(block) }

        let keptAfterFree = Self.residentFraction(of: blocks)
        let result = try #require(HeapTrim.trim())
        let keptAfterTrim = Self.residentFraction(of: blocks)

        #expect(keptAfterFree > 0.9, "the allocator kept \(keptAfterFree) of the freed pages resident")
        #expect(keptAfterTrim < 0.1, "after the trim \(keptAfterTrim) of them are still resident")
        #expect(result.duration < .seconds(1))
    }

    @Test("The service counts what each trim gave back, and is off at a zero interval")
    func theServiceCountsWhatItGaveBack() throws {
        #expect(HeapTrimService(interval: .zero, logger: Logger(label: "test")) == nil)
        let metrics = TestMetrics()
        let service = try #require(HeapTrimService(interval: .seconds(60), metricsFactory: metrics, logger: Logger(label: "test")))
        let first = try #require(service.trimOnce())
        let second = try #require(service.trimOnce())
        let counter = try metrics.expectCounter(MetricCatalog.memoryTrimmedBytes.name)
        #expect(counter.totalValue == Int64(first.releasedBytes + second.releasedBytes))
        #expect(counter.values.count == 2)
    }

    /// The share of the blocks' whole pages that are resident now.
    static func residentFraction(of blocks: [UnsafeMutableRawPointer]) -> Double {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = 0
        var total = 0
        var vector = [UInt8](repeating: 0, count: blockSize / page)
        for block in blocks {
            let start = (Int(bitPattern: block) + page - 1) / page * page
            let end = (Int(bitPattern: block) + blockSize) / page * page
            guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            let pages = (end - start) / page
            guard mincore(address, end - start, &vector) == 0 else { continue }
            total += pages
            resident += vector[0..<pages].filter { $0 & 1 == 1 }.count
        }
        return total == 0 ? 0 : Double(resident) / Double(total)
    }
}
