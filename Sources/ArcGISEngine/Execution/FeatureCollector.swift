import FeatureGeometry

/// What the runner needs from whatever gathers a layer's pages: decode a page, say how many rows it held
/// and whether the service has more, keep one feature per object id, and hand back the selection.
protocol FeatureAccumulator {
    associatedtype Page: Sendable
    static func decode(_ body: [UInt8], layer: LayerMetadata) throws(ArcGISError) -> Page
    static func rowCount(_ page: Page) -> Int
    static func exceededTransferLimit(_ page: Page) -> Bool
    /// The bytes keeping `page` costs, reserved from the request's budget before it is added.
    static func heldBytes(_ page: Page) -> Int
    /// Features kept (unique ids).
    var count: Int { get }
    /// Rows that repeated an id already kept.
    var duplicates: Int { get }
    func contains(_ id: Int64) -> Bool
    /// Adds a page's features; `only` keeps just the ids asked for (an `objectIds` request).
    mutating func add(_ page: Page, only: Set<Int64>?) throws(ArcGISError)
    /// The features kept, ordered by object id, as the result's selection.
    mutating func finish(layer: LayerMetadata) -> LayerQueryResult.Selection
}

/// Gathers ``Feature`` values, one per object id, with the field order and spatial reference the service
/// reported.
struct FeatureCollector: FeatureAccumulator {
    private var features: [Feature] = []
    private var seen: Set<Int64> = []
    private(set) var duplicates = 0
    private var fieldOrder: [String] = []
    private var spatialReference: SpatialReference?
    let limit: Int
    let layer: String

    init(limit: Int, layer: String) {
        self.limit = limit
        self.layer = layer
    }

    /// A decoded page with the size of the body it came from: the measure of what its features hold.
    struct SizedPage: Sendable {
        var page: FeaturePage
        var bodyBytes: Int
    }

    static func decode(_ body: [UInt8], layer: LayerMetadata) throws(ArcGISError) -> SizedPage {
        SizedPage(
            page: try ArcGISResponse.featurePage(body, layer: layer.url, objectIdField: layer.objectIdField),
            bodyBytes: body.count)
    }

    static func rowCount(_ page: SizedPage) -> Int { page.page.features.count }
    static func exceededTransferLimit(_ page: SizedPage) -> Bool { page.page.exceededTransferLimit }
    /// The Esri JSON body's size: an estimate (decoded values take a few times more), for structured output,
    /// which the worker does not use.
    static func heldBytes(_ page: SizedPage) -> Int { page.bodyBytes }

    var count: Int { features.count }

    func contains(_ id: Int64) -> Bool { seen.contains(id) }

    mutating func add(_ sized: SizedPage, only: Set<Int64>?) throws(ArcGISError) {
        let page = sized.page
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
        try checkLimit(features.count, limit: limit, layer: layer)
    }

    /// The features ordered by object id (sorted in place, not copied), with the field order the responses
    /// listed (the layer's when none did) and the spatial reference of their geometries.
    mutating func finish(layer: LayerMetadata) -> LayerQueryResult.Selection {
        features.sort { $0.objectId < $1.objectId }
        return .features(
            features, fieldOrder: fieldOrder.isEmpty ? layer.fields.map(\.name) : fieldOrder,
            spatialReference: spatialReference)
    }
}

/// Gathers GeoJSON pages, keeping their bytes as they are and one reference per object id.
struct GeoJSONCollector: FeatureAccumulator {
    private var pages: [[UInt8]] = []
    private var references: [GeoJSONFeatures.Reference] = []
    private var seen: Set<Int64> = []
    private(set) var duplicates = 0
    let limit: Int
    let layer: String

    init(limit: Int, layer: String) {
        self.limit = limit
        self.layer = layer
    }

    static func decode(_ body: [UInt8], layer: LayerMetadata) throws(ArcGISError) -> GeoJSONPage {
        try ArcGISResponse.geoJSONPage(body, layer: layer.url, objectIdField: layer.objectIdField)
    }

    static func rowCount(_ page: GeoJSONPage) -> Int { page.entries.count }
    static func exceededTransferLimit(_ page: GeoJSONPage) -> Bool { page.exceededTransferLimit }
    /// The page's GeoJSON bytes (kept whole while any of its features is) and, per feature, its reference here
    /// and its id and slice in the published result.
    static func heldBytes(_ page: GeoJSONPage) -> Int { page.bytes.count + page.entries.count * 48 }

    var count: Int { references.count }

    func contains(_ id: Int64) -> Bool { seen.contains(id) }

    mutating func add(_ page: GeoJSONPage, only: Set<Int64>?) throws(ArcGISError) {
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

    /// The features ordered by object id, their bytes left in their pages (the field order is in them).
    mutating func finish(layer: LayerMetadata) -> LayerQueryResult.Selection {
        references.sort { $0.objectId < $1.objectId }
        return .geoJSON(GeoJSONFeatures(pages: pages, references: references))
    }
}

private func checkLimit(_ count: Int, limit: Int, layer: String) throws(ArcGISError) {
    guard count <= limit else {
        throw ArcGISError(
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
