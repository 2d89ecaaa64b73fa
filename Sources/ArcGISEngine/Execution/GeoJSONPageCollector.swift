import FeatureService

/// Gathers a layer's GeoJSON pages as they arrive (``GeoJSONPageTranscoder`` wrote them), keeping their bytes
/// as they are and one reference per object id: one feature per id, however often paging repeats it.
///
/// A layer streamed to the result store (``StoredLayerStream``) hands what it holds over once (``handOver()``)
/// and from then on keeps only the id set: each ``add(_:only:)`` returns the page's newly kept features for
/// the writer, and nothing of the page is retained.
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
    /// Features kept (held, or handed to the store).
    private(set) var count = 0
    /// Whether kept features are held here (false once the layer streams to the store).
    private(set) var retains: Bool
    let limit: Int
    let layer: String

    init(limit: Int, layer: String, retains: Bool = true) {
        self.limit = limit
        self.layer = layer
        self.retains = retains
    }

    static func decode(_ body: [UInt8], layer: LayerMetadata) throws(FeatureServiceError) -> GeoJSONPage {
        try ArcGISResponse.geoJSONPage(body, layer: layer.url, objectIdField: layer.objectIdField)
    }

    static func rowCount(_ page: GeoJSONPage) -> Int { page.entries.count }
    static func exceededTransferLimit(_ page: GeoJSONPage) -> Bool { page.exceededTransferLimit }
    /// The page's GeoJSON bytes (kept whole while any of its features is) and, per feature, its reference here
    /// and its id and slice in the published result.
    static func heldBytes(_ page: GeoJSONPage) -> Int { page.bytes.count + page.entries.count * 48 }

    func contains(_ id: Int64) -> Bool { seen.contains(id) }

    /// Keeps the page's features not seen before (of `only`, when given) and returns their bytes, in the
    /// page's order: what a streamed layer appends.
    @discardableResult
    mutating func add(_ page: GeoJSONPage, only: Set<Int64>?) throws(FeatureServiceError) -> [ArraySlice<UInt8>] {
        let index = Int32(pages.count)
        var kept: [ArraySlice<UInt8>] = []
        // Sized once per page: grown an id at a time, the set rehashed itself seven times over a first page.
        kept.reserveCapacity(page.entries.count)
        seen.reserveCapacity(seen.count + page.entries.count)
        for entry in page.entries {
            if let only, !only.contains(entry.objectId) { continue }
            guard seen.insert(entry.objectId).inserted else {
                duplicates += 1
                continue
            }
            if retains { references.append(.init(objectId: entry.objectId, page: index, start: entry.start, end: entry.end)) }
            kept.append(page.bytes[entry.start..<entry.end])
        }
        count += kept.count
        if retains { pages.append(kept.isEmpty ? [] : page.bytes) }
        try checkLimit(count, limit: limit, layer: layer)
        return kept
    }

    /// Everything held, in arrival order, for the store's writer; from now on nothing is held (only the ids).
    mutating func handOver() -> [ArraySlice<UInt8>] {
        let held = references.map { pages[Int($0.page)][$0.start..<$0.end] }
        references = []
        pages = []
        retains = false
        return held
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
