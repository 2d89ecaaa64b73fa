import FeatureGeometry

/// The features an items request matches, in OBJECTID order: every feature of the collection (no bbox,
/// no filter: nothing is computed, so paging a whole collection costs only its pages), or the matching
/// store indices, computed once and kept in the selection cache for the following pages.
enum OGCSelection: Sendable {
    case all(count: Int)
    case indices([Int32])

    var count: Int {
        switch self {
        case .all(let count): count
        case .indices(let indices): indices.count
        }
    }

    /// The store index of the feature at `position` in the selection.
    @inline(__always)
    func index(at position: Int) -> Int {
        switch self {
        case .all: position
        case .indices(let indices): Int(indices[position])
        }
    }

    static func select(_ query: OGCItemsQuery, _ collection: OGCCollection, cache: SelectionCache) throws -> OGCSelection {
        if query.predicate == nil, query.boxes == nil { return .all(count: collection.source.featureCount) }
        if let cached = cache.lookup(query.selectionKey) { return .indices(cached) }
        var work = 0
        var candidates: [Int32]?
        if let boxes = query.boxes {
            var merged: [Int32] = []
            for box in boxes {
                guard let spatial = try spatialQuery(box, storage: collection.storageReference) else { continue }
                merged += try collection.source.matches(spatial) { _ in true }
            }
            if boxes.count > 1 {
                merged.sort()
                var unique: [Int32] = []
                for value in merged where unique.last != value { unique.append(value) }
                merged = unique
            }
            work += merged.count
            candidates = merged
        }
        var result: [Int32]
        if let predicate = query.predicate, predicate.constant != true {
            var record = predicate.makeRecord()
            result = []
            if predicate.constant == false {
                // nothing matches
            } else if let candidates {
                for index in candidates where predicate.matches(collection.source, Int(index), record: &record) { result.append(index) }
            } else {
                var scanned = 0
                try collection.source.forEachIndex { index in
                    scanned += 1
                    if scanned & 0xFFFF == 0 { try Task.checkCancellation() }
                    if predicate.matches(collection.source, index, record: &record) { result.append(Int32(truncatingIfNeeded: index)) }
                }
                work += scanned
            }
        } else if let candidates {
            result = candidates
        } else {
            result = []
            collection.source.forEachIndex { result.append(Int32(truncatingIfNeeded: $0)) }
        }
        if work >= QueryExecutor.cacheThreshold { cache.store(query.selectionKey, result) }
        return .indices(result)
    }

    /// A WGS 84 rectangle as an intersects query in the storage reference (Web Mercator stops at ±85.05°).
    private static func spatialQuery(_ box: Envelope, storage: SpatialReference) throws -> SpatialQuery? {
        var clamped = box
        if storage.isWebMercator {
            clamped.ymin = max(clamped.ymin, -WebMercator.maxLatitude)
            clamped.ymax = min(clamped.ymax, WebMercator.maxLatitude)
            guard clamped.ymin <= clamped.ymax else { return nil }
        }
        let projected = storage.isWGS84 ? clamped : try clamped.projected(to: storage)
        return SpatialQuery(geometry: .envelope(projected), relation: .intersects)
    }
}
