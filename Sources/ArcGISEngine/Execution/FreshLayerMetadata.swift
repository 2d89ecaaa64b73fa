import Synchronization

/// The layer metadata the engine's cache holds fresh, with each entry's expiry, in this module's own types:
/// the lookup every query makes.
///
/// ``ExpiringCache`` is generic and its calls from this module are not specialised (an `@inlinable` fast path
/// was tried: the binary still called the generic code), so each lookup went through the generic metadata of
/// its entries: about 1.5 µs of a count query's ~10 µs of engine CPU. Entries here are copies of the cache's
/// own, the same value with the same expiry, taken when a query finds one missing; they answer only while
/// that expiry is ahead, as the cache itself would, and ``removeAll()`` is called with the cache's.
final class FreshLayerMetadata: Sendable {
    private struct Entry {
        var metadata: LayerMetadata
        var expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Counts ``removeAll()`` calls: an entry read from the cache before one is not kept after it.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())

    init() {}

    /// The metadata under `key` while its expiry is ahead, else nil and the generation to pass to
    /// ``store(_:expires:for:generation:)`` with what the cache holds.
    func metadata(for key: String) -> (metadata: LayerMetadata?, generation: UInt64) {
        state.withLock { state in
            guard let entry = state.entries[key], ContinuousClock.now < entry.expires else { return (nil, state.generation) }
            return (entry.metadata, state.generation)
        }
    }

    /// Keeps `metadata`, fresh until `expires`, under `key` (replacing what an earlier load left there), unless
    /// ``removeAll()`` ran since `generation` was read.
    func store(_ metadata: LayerMetadata, expires: ContinuousClock.Instant, for key: String, generation: UInt64) {
        state.withLock { state in
            guard state.generation == generation else { return }
            state.entries[key] = Entry(metadata: metadata, expires: expires)
        }
    }

    func removeAll() {
        state.withLock { state in
            state.entries.removeAll()
            state.generation += 1
        }
    }
}
