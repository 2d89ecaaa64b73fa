import FeatureService

/// Gathers a layer's GeoJSON pages as they arrive (``GeoJSONPageTranscoder`` wrote them), keeping their bytes
/// as they are and one reference per object id: one feature per id, however often paging repeats it.
struct GeoJSONPageCollector {
    fileprivate var pages: [[UInt8]] = []
    fileprivate var references: [Reference] = []
    private var seen: Set<Int64> = []
    /// Where one kept feature's bytes are: its page and its range there.
    fileprivate struct Reference {
        var objectId: Int64
        var page: Int32
        var start: Int
        var end: Int
    }
    private(set) var duplicates = 0
    let limit: Int
    let layer: String

    init(limit: Int, layer: String) {
        self.limit = limit
        self.layer = layer
    }

    static func decode(_ body: [UInt8], layer: LayerMetadata) throws(FeatureServiceError) -> GeoJSONPage {
        try ArcGISResponse.geoJSONPage(body, layer: layer.url, objectIdField: layer.objectIdField)
    }

    static func rowCount(_ page: GeoJSONPage) -> Int { page.entries.count }
    static func exceededTransferLimit(_ page: GeoJSONPage) -> Bool { page.exceededTransferLimit }
    /// The page's GeoJSON bytes (kept whole while any of its features is) and, per feature, its reference here
    /// and its id and slice in the published result.
    static func heldBytes(_ page: GeoJSONPage) -> Int { page.bytes.count + page.entries.count * 48 }

    var count: Int { references.count }

    func contains(_ id: Int64) -> Bool { seen.contains(id) }

    mutating func add(_ page: GeoJSONPage, only: Set<Int64>?) throws(FeatureServiceError) {
        let index = Int32(pages.count)
        var kept = 0
        for entry in page.entries {
            if let only, !only.contains(entry.objectId) { continue }
            guard seen.insert(entry.objectId).inserted else {
                duplicates += 1
                continue
            }
            references.append(.init(objectId: entry.objectId, page: index, start: entry.start, end: entry.end))
            kept += 1
        }
        pages.append(kept > 0 ? page.bytes : [])
        try checkLimit(references.count, limit: limit, layer: layer)
    }

    /// The features ordered by object id, each a slice of the page it arrived in (not a copy).
    mutating func finish() -> GeoJSONFeatureList {
        references.sort { $0.objectId < $1.objectId }
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        ids.reserveCapacity(references.count)
        json.reserveCapacity(references.count)
        for reference in references {
            ids.append(reference.objectId)
            json.append(pages[Int(reference.page)][reference.start..<reference.end])
        }
        return GeoJSONFeatureList(objectIds: ids, json: json)
    }
}

extension GeoJSONPageCollector {
    /// The features in the order of `ids` (an order the query asked for); ids without a feature are left out.
    mutating func finish(inOrderOf ids: [Int64]) -> GeoJSONFeatureList {
        var position: [Int64: Int] = [:]
        position.reserveCapacity(references.count)
        for (index, reference) in references.enumerated() { position[reference.objectId] = index }
        var kept: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        for id in ids {
            guard let index = position[id] else { continue }
            let reference = references[index]
            kept.append(id)
            json.append(pages[Int(reference.page)][reference.start..<reference.end])
        }
        return GeoJSONFeatureList(objectIds: kept, json: json)
    }
}

private func checkLimit(_ count: Int, limit: Int, layer: String) throws(FeatureServiceError) {
    guard count <= limit else {
        throw FeatureServiceError(
            .limitExceeded, "\(layer) returned more than \(limit) features; ask for ids or set maxFeatures", layer: layer)
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
