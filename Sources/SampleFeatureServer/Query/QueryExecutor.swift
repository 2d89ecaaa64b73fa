import QueryLanguage

/// Computes a query's selection: the feature indices it matches, in the requested order. Object ids and
/// geometry narrow the candidates first (the spatial index yields them in id order), then the where
/// clause filters them; without either, the clause scans the layer. Large selections are cached.
enum QueryExecutor {
    /// Selections that took at least this much work are worth caching for the next page.
    static let cacheThreshold = 20_000

    static func select(
        _ request: LayerQueryParameters, layer: SampleLayer, source: FeatureSource, timeField: Int? = nil,
        cache: SelectionCache
    ) throws -> [Int32] {
        let key = layer.path + "#" + request.selectionKey
        if let cached = cache.lookup(key) { return cached }
        var work = 0
        var candidates: [Int32]?
        if let ids = request.objectIDs {
            var indices = ids.compactMap { id -> Int32? in
                guard id > 0, source.contains(id - 1) else { return nil }  // ids start at 1; no overflow for Int.min
                return Int32(truncatingIfNeeded: id - 1)
            }
            indices.sort()
            candidates = deduplicated(indices)
        }
        if candidates == nil, case .table(let table) = source, let apns = request.predicate?.requiredStrings[1] {
            candidates = table.rows(keyedBy: apns)  // the key's index: `ParcelAPN IN (…)` without a scan
        }
        if let spatial = request.spatial {
            if let restriction = candidates {
                candidates = try source.matches(spatial) { contains(restriction, Int32(truncatingIfNeeded: $0)) }
            } else {
                candidates = try source.matches(spatial) { _ in true }
            }
            work += candidates?.count ?? 0
        }
        var result: [Int32]
        if let predicate = request.predicate, predicate.constant != true {
            var record = predicate.makeRecord()
            result = []
            if predicate.constant == false {
                // nothing matches
            } else if let candidates {
                for index in candidates where predicate.matches(source, Int(index), record: &record) {
                    result.append(index)
                }
            } else {
                var scanned = 0
                try source.forEachIndex { index in
                    scanned += 1
                    if scanned & 0xFFFF == 0 { try Task.checkCancellation() }
                    if predicate.matches(source, index, record: &record) { result.append(Int32(truncatingIfNeeded: index)) }
                }
                work += scanned
            }
        } else if let candidates {
            result = candidates
        } else {
            result = []
            result.reserveCapacity(source.featureCount)
            source.forEachIndex { result.append(Int32(truncatingIfNeeded: $0)) }
            work += result.count
        }
        if let time = request.time, let timeField {  // time-aware layers only; NULL dates never match
            result = result.filter { index in
                if case .date(let value) = source.value(timeField, Int(index)) { return time.contains(value) }
                return false
            }
        }
        if let order = request.order, !order.isNatural {
            order.sort(&result, source: source)
            work += result.count * 4
        }
        if work >= cacheThreshold { cache.store(key, result) }
        return result
    }

    private static func deduplicated(_ sorted: [Int32]) -> [Int32] {
        var result: [Int32] = []
        result.reserveCapacity(sorted.count)
        for value in sorted where result.last != value { result.append(value) }
        return result
    }

    /// Binary search in an ascending array.
    private static func contains(_ sorted: [Int32], _ value: Int32) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }
}
