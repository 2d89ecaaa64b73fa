/// One page of features already written as GeoJSON `Feature` objects, back to back in one buffer: what the
/// engine keeps when the caller wants GeoJSON, so that pages are converted as they arrive (in parallel) and
/// a result holds compact bytes instead of a tree per feature.
struct GeoJSONPage: Sendable {
    struct Entry: Sendable, Hashable {
        var objectId: Int64
        /// The feature's bytes within ``GeoJSONPage/bytes``.
        var start: Int
        var end: Int
    }

    /// `{"type":"Feature",...}` objects, one after another, without separators.
    var bytes: [UInt8]
    /// One entry per feature, in the order the service sent them.
    var entries: [Entry]
    var exceededTransferLimit: Bool
    var objectIdFieldName: String?
    var fieldOrder: [String]

    init(bytes: [UInt8], entries: [Entry], exceededTransferLimit: Bool, objectIdFieldName: String?, fieldOrder: [String]) {
        self.bytes = bytes
        self.entries = entries
        self.exceededTransferLimit = exceededTransferLimit
        self.objectIdFieldName = objectIdFieldName
        self.fieldOrder = fieldOrder
    }
}

/// A layer's features as GeoJSON, ordered by object id, one per id: the form the worker publishes.
///
/// The bytes stay in the pages they arrived in; ``featureCollection()`` and ``forEachFeature(_:)`` walk them
/// in id order without copying them into objects.
package struct GeoJSONFeatures: Sendable {
    struct Reference: Sendable {
        var objectId: Int64
        var page: Int32
        var start: Int
        var end: Int
    }

    let pages: [[UInt8]]
    let references: [Reference]

    init(pages: [[UInt8]], references: [Reference]) {
        self.pages = pages
        self.references = references
    }

    /// The number of features.
    package var count: Int { references.count }

    /// The features' object ids, ascending.
    package var objectIds: [Int64] { references.map(\.objectId) }

    /// Calls `body` with each feature's object id and its GeoJSON `Feature` object (UTF-8), in id order.
    package func forEachFeature(_ body: (Int64, ArraySlice<UInt8>) throws -> Void) rethrows {
        for reference in references {
            try body(reference.objectId, pages[Int(reference.page)][reference.start..<reference.end])
        }
    }

    /// The number of bytes ``featureCollection()`` returns.
    var featureCollectionSize: Int {
        references.reduce(prefix.count + suffix.count + max(0, references.count - 1)) { $0 + $1.end - $1.start }
    }

    /// A GeoJSON `FeatureCollection` of every feature, in id order.
    package func featureCollection() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(featureCollectionSize)
        output.append(contentsOf: prefix)
        for (index, reference) in references.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: pages[Int(reference.page)][reference.start..<reference.end])
        }
        output.append(contentsOf: suffix)
        return output
    }

    private var prefix: [UInt8] { Array(#"{"type":"FeatureCollection","features":["#.utf8) }
    private var suffix: [UInt8] { Array("]}".utf8) }
}
