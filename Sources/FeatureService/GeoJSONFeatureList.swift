/// A layer's features as GeoJSON `Feature` objects, each with its object id, ready to be written into result
/// messages without being parsed or copied again.
///
/// An engine keeps the bytes where they arrived (its pages); this holds one slice per feature, so a result can
/// be cut into parts at any feature.
package struct GeoJSONFeatureList: Sendable {
    /// The features' object ids, in order (ascending, as engines return them).
    package let objectIds: [Int64]
    /// Each feature's GeoJSON `Feature` object, compact UTF-8 JSON, in the order of ``objectIds``.
    package let json: [ArraySlice<UInt8>]

    /// Features as slices of an engine's buffers; `objectIds` and `json` pair up by index.
    package init(objectIds: [Int64], json: [ArraySlice<UInt8>]) {
        precondition(objectIds.count == json.count, "one GeoJSON object per object id")
        self.objectIds = objectIds
        self.json = json
    }

    /// Features already written as GeoJSON `Feature` objects by the caller (a protocol's response, a test).
    /// Each must be one compact JSON object; it is copied into the message as it is.
    package init(encoded features: [(objectId: Int64, feature: [UInt8])]) {
        self.objectIds = features.map(\.objectId)
        self.json = features.map { ArraySlice($0.feature) }
    }

    /// No features.
    package static let empty = GeoJSONFeatureList(encoded: [])

    /// The number of features.
    package var count: Int { objectIds.count }

    /// Calls `body` with each feature's object id and GeoJSON bytes, in order.
    package func forEachFeature(_ body: (Int64, ArraySlice<UInt8>) throws -> Void) rethrows {
        for index in objectIds.indices { try body(objectIds[index], json[index]) }
    }
}
