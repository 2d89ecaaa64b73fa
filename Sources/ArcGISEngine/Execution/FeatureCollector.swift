import FeatureGeometry

/// Gathers the features of a layer's pages: keeps one feature per object id, counts repeats, and remembers
/// the field order and spatial reference the service reported.
struct FeatureCollector {
    private(set) var features: [Feature] = []
    private var seen: Set<Int64> = []
    private(set) var duplicates = 0
    private(set) var fieldOrder: [String] = []
    private(set) var spatialReference: SpatialReference?
    let limit: Int
    let layer: String

    init(limit: Int, layer: String) {
        self.limit = limit
        self.layer = layer
    }

    var count: Int { features.count }

    func contains(_ id: Int64) -> Bool { seen.contains(id) }

    /// Adds a page's features; `only` keeps just the ids asked for (an `objectIds` request).
    mutating func add(_ page: FeaturePage, only: Set<Int64>? = nil) throws(ArcGISError) {
        if fieldOrder.isEmpty { fieldOrder = page.fieldOrder }
        if spatialReference == nil { spatialReference = page.spatialReference }
        for feature in page.features {
            if let only, !only.contains(feature.objectId) { continue }
            guard seen.insert(feature.objectId).inserted else {
                duplicates += 1
                continue
            }
            features.append(feature)
        }
        guard features.count <= limit else {
            throw ArcGISError(
                .limitExceeded,
                "\(layer) returned more than \(limit) features; ask for ids or set maxFeatures", layer: layer)
        }
    }

    /// The features ordered by object id.
    func sortedFeatures() -> [Feature] {
        features.sorted { $0.objectId < $1.objectId }
    }
}

extension Array where Element == Int64 {
    /// Sorted, without repeats; also how many repeats there were.
    func sortedUnique() -> (ids: [Int64], duplicates: Int) {
        var sorted = self.sorted()
        var write = 0
        for read in sorted.indices {
            if write == 0 || sorted[write - 1] != sorted[read] {
                sorted[write] = sorted[read]
                write += 1
            }
        }
        let duplicates = sorted.count - write
        sorted.removeLast(sorted.count - write)
        return (sorted, duplicates)
    }
}
