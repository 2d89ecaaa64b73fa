import Synchronization
import FeatureService

/// Target URLs the engine has parsed, by their text: a worker queries the same few layers over and over, and
/// each of its queries parsed its target twice (the layer limit's check, then the query). Re-measured on
/// 2026-12-05 (docs/performance/README.md, "Micro-optimisations re-measured"): parsing and copying the two
/// took 2.2% of a count query's CPU samples, about 1 µs; with this cache 0.4%.
///
/// Only URLs that parse are kept (a bad one is parsed again and fails with its own message). Bounded: when
/// ``capacity`` are held the next new one empties the cache first, and URLs longer than ``maxURLBytes``
/// are never kept.
final class ParsedLayerURLs: Sendable {
    static let capacity = 256
    static let maxURLBytes = 2_048

    private let parsed = Mutex<[String: LayerURL]>([:])

    init() {}

    /// `LayerURL(parsing: text)`, from the cache when `text` parsed before.
    func layerURL(_ text: String) throws(FeatureServiceError) -> LayerURL {
        guard text.utf8.count <= Self.maxURLBytes else { return try LayerURL(parsing: text) }
        if let hit = parsed.withLock({ $0[text] }) { return hit }
        let url = try LayerURL(parsing: text)
        parsed.withLock { parsed in
            if parsed.count >= Self.capacity { parsed.removeAll(keepingCapacity: true) }
            parsed[text] = url
        }
        return url
    }

    /// How many URLs are held (for tests).
    var count: Int { parsed.withLock { $0.count } }
}
