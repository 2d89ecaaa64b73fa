/// A layer's features as GeoJSON `Feature` objects, each with its identifier, ready to be written into result
/// messages without being parsed or copied again.
///
/// An engine keeps the bytes where they arrived (its pages); this holds one slice per feature, so a result can
/// be cut into parts at any feature.
package struct GeoJSONFeatureList: Sendable {
    /// The features' identifiers, by protocol: ArcGIS object ids, or OGC feature ids as the server gave them.
    package enum Identifiers: Sendable {
        /// ArcGIS object ids, ascending.
        case objectIds([Int64])
        /// OGC feature ids in arrival order; `nil` for a feature that has none.
        case featureIds([FeatureID?])

        package var count: Int {
            switch self {
            case .objectIds(let ids): ids.count
            case .featureIds(let ids): ids.count
            }
        }
    }

    /// The features' identifiers, paired with ``json`` by index.
    package let identifiers: Identifiers
    /// Each feature's GeoJSON `Feature` object, compact UTF-8 JSON, in the order of ``identifiers``.
    package let json: [ArraySlice<UInt8>]

    /// ArcGIS features as slices of an engine's buffers; `objectIds` and `json` pair up by index.
    package init(objectIds: [Int64], json: [ArraySlice<UInt8>]) {
        precondition(objectIds.count == json.count, "one GeoJSON object per object id")
        self.identifiers = .objectIds(objectIds)
        self.json = json
    }

    /// OGC features; `featureIds` and `json` pair up by index.
    package init(featureIds: [FeatureID?], json: [ArraySlice<UInt8>]) {
        precondition(featureIds.count == json.count, "one GeoJSON object per feature id")
        self.identifiers = .featureIds(featureIds)
        self.json = json
    }

    /// Features already written as GeoJSON `Feature` objects by the caller (a protocol's response, a test).
    /// Each must be one compact JSON object; it is copied into the message as it is.
    package init(encoded features: [(objectId: Int64, feature: [UInt8])]) {
        self.identifiers = .objectIds(features.map(\.objectId))
        self.json = features.map { ArraySlice($0.feature) }
    }

    /// No features.
    package static let empty = GeoJSONFeatureList(encoded: [])

    /// The number of features.
    package var count: Int { json.count }

    /// The ArcGIS object ids; empty for a list identified by OGC feature ids (see ``identifiers``).
    package var objectIds: [Int64] {
        if case .objectIds(let ids) = identifiers { return ids }
        return []
    }

    /// A GeoJSON `FeatureCollection` of every feature, in the list's order: for a caller that wants the layer
    /// as one document (a benchmark writing a file, a test comparing with a reference).
    package func featureCollection() -> [UInt8] {
        let prefix = #"{"type":"FeatureCollection","features":["#.utf8
        var output: [UInt8] = []
        output.reserveCapacity(prefix.count + 2 + json.count + json.reduce(0) { $0 + $1.count })
        output.append(contentsOf: prefix)
        for (index, feature) in json.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.append(contentsOf: feature)
        }
        output.append(contentsOf: "]}".utf8)
        return output
    }
}
