import Synchronization

/// Recently computed selections (sorted feature indices), so that a client paging through a large result
/// with resultOffset does not make the server evaluate the whole clause again for every page: without it,
/// paging through 1.5 million matches 2,000 at a time would cost quadratic time.
///
/// Least recently used entries go first; the total number of ids held is bounded.
final class SelectionCache: Sendable {
    private struct Entry {
        var key: String
        var indices: [Int32]
    }

    private struct State {
        var entries: [Entry] = []
        var totalIDs = 0
    }

    private let state = Mutex(State())
    private let capacityIDs: Int
    private let maximumEntries: Int

    init(capacityIDs: Int = 12_000_000, maximumEntries: Int = 32) {
        self.capacityIDs = capacityIDs
        self.maximumEntries = maximumEntries
    }

    func lookup(_ key: String) -> [Int32]? {
        state.withLock { state in
            guard let position = state.entries.lastIndex(where: { $0.key == key }) else { return nil }
            let entry = state.entries.remove(at: position)
            state.entries.append(entry)
            return entry.indices
        }
    }

    func store(_ key: String, _ indices: [Int32]) {
        guard indices.count <= capacityIDs else { return }
        // Evicted arrays are released after the lock, not under it.
        let evicted: [Entry] = state.withLock { state in
            var evicted: [Entry] = []
            if let position = state.entries.firstIndex(where: { $0.key == key }) {
                let old = state.entries.remove(at: position)
                state.totalIDs -= old.indices.count
                evicted.append(old)
            }
            state.entries.append(Entry(key: key, indices: indices))
            state.totalIDs += indices.count
            while state.totalIDs > capacityIDs || state.entries.count > maximumEntries {
                let old = state.entries.removeFirst()
                state.totalIDs -= old.indices.count
                evicted.append(old)
            }
            return evicted
        }
        _ = evicted
    }
}
