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
        if query.predicate == nil, query.regions.isEmpty, query.ids == nil, query.order == nil {
            return .all(count: collection.source.featureCount)
        }
        if let cached = cache.lookup(query.selectionKey) { return .indices(cached) }
        var work = 0
        var candidates: [Int32]?
        if let ids = query.ids {
            candidates = sortedUnique(ids.compactMap { id -> Int32? in
                guard id > 0, collection.source.contains(id - 1) else { return nil }
                return Int32(truncatingIfNeeded: id - 1)
            })
        }
        for region in query.regions {
            var merged: [Int32] = []
            for shape in region.shapes {
                guard let spatial = try spatialQuery(shape, storage: collection.storageReference) else { continue }
                merged += try collection.source.matches(spatial) { _ in true }
            }
            if region.shapes.count > 1 { merged = sortedUnique(merged) }
            work += merged.count
            candidates = candidates.map { intersection($0, merged) } ?? merged
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
        if let order = query.order, !order.isNatural {
            order.sort(&result, source: collection.source)
            work += result.count * 4
        }
        if work >= QueryExecutor.cacheThreshold { cache.store(query.selectionKey, result) }
        return .indices(result)
    }

    /// A WGS 84 shape as an intersects query in the storage reference (Web Mercator stops at ±85.05°).
    private static func spatialQuery(_ shape: Geometry, storage: SpatialReference) throws -> SpatialQuery? {
        if case .envelope(var box) = shape {
            if storage.isWebMercator {
                box.ymin = max(box.ymin, -WebMercator.maxLatitude)
                box.ymax = min(box.ymax, WebMercator.maxLatitude)
                guard box.ymin <= box.ymax else { return nil }
            }
            let projected = storage.isWGS84 ? box : try box.projected(to: storage)
            return SpatialQuery(geometry: .envelope(projected), relation: .intersects)
        }
        let projected = storage.isWGS84 ? shape : try shape.projected(to: storage)
        return SpatialQuery(geometry: projected, relation: .intersects)
    }

    private static func sortedUnique(_ values: [Int32]) -> [Int32] {
        var unique: [Int32] = []
        for value in values.sorted() where unique.last != value { unique.append(value) }
        return unique
    }

    /// The common values of two ascending arrays.
    private static func intersection(_ a: [Int32], _ b: [Int32]) -> [Int32] {
        var result: [Int32] = []
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] { i += 1 } else if a[i] > b[j] { j += 1 } else {
                result.append(a[i])
                i += 1
                j += 1
            }
        }
        return result
    }
}
