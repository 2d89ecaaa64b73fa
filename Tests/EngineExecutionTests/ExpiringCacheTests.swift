import EngineExecution
import Testing

/// The engines' expiring single-flight metadata cache: what it answers without loading.
@Suite("ExpiringCache: fresh values")
struct ExpiringCacheTests {
    @Test("The cache answers fresh values without loading, and nothing when cancelled, absent or expired")
    func cacheFreshValues() async throws {
        let cache = ExpiringCache<Int>(ttl: .seconds(60))
        #expect(try cache.freshValue(for: "k") == nil)
        #expect(try await cache.value(for: "k") { 7 } == 7)
        #expect(try cache.freshValue(for: "k") == 7)
        #expect(try await cache.value(for: "k") { 8 } == 7)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try cache.freshValue(for: "k")
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        let expired = ExpiringCache<Int>(ttl: .zero)
        #expect(try await expired.value(for: "k") { 1 } == 1)
        #expect(try expired.freshValue(for: "k") == nil)
        #expect(try await expired.value(for: "k") { 2 } == 2)
    }

    /// Values expired and never asked for again are dropped: a worker asked about ever new layers does not keep
    /// the metadata of every layer it has queried (before, all 200 stayed).
    @Test func expiredValuesOfKeysNeverAskedForAgainAreDropped() async throws {
        let cache = ExpiringCache<Int>(ttl: .zero)
        for index in 0..<200 { _ = try await cache.value(for: "layer-\(index)") { index } }
        #expect(cache.count < ExpiringCache<Int>.sweepInterval, "\(cache.count) entries kept")
        let fresh = ExpiringCache<Int>(ttl: .seconds(60))
        for index in 0..<200 { _ = try await fresh.value(for: "layer-\(index)") { index } }
        #expect(fresh.count == 200, "fresh values stay")
    }
}
