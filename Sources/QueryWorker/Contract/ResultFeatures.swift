public import ArcGISEngine

/// A layer's features as GeoJSON `Feature` objects, each with its object id, ready to be written into result
/// messages without being parsed or copied again.
///
/// The bytes stay where the engine keeps them (``GeoJSONFeatures`` pages); this holds one slice per feature,
/// so a result can be cut into parts at any feature.
public struct ResultFeatures: Sendable {
    /// The features' object ids, in order (ascending, as the engine returns them).
    public let objectIds: [Int64]
    /// Each feature's GeoJSON `Feature` object, compact UTF-8 JSON, in the order of ``objectIds``.
    let json: [ArraySlice<UInt8>]

    /// The engine's GeoJSON output of a layer.
    public init(_ features: GeoJSONFeatures) {
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        ids.reserveCapacity(features.count)
        json.reserveCapacity(features.count)
        features.forEachFeature { id, bytes in
            ids.append(id)
            json.append(bytes)
        }
        self.objectIds = ids
        self.json = json
    }

    /// Structured features, written as GeoJSON now (``FeatureGeoJSON``). Throws when a geometry cannot be
    /// written as GeoJSON (a spatial reference other than WGS 84 or Web Mercator).
    public init(_ features: [Feature], fieldOrder: [String], layer: String) throws(ArcGISError) {
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        for feature in features {
            var text = ""
            try FeatureGeoJSON.write(feature, fieldOrder: fieldOrder, layer: layer, to: &text)
            ids.append(feature.objectId)
            json.append(ArraySlice(text.utf8))
        }
        self.objectIds = ids
        self.json = json
    }

    /// Features already written as GeoJSON `Feature` objects by the caller (an OGC collection's response, a
    /// test). Each must be one compact JSON object; it is copied into the message as it is.
    public init(encoded features: [(objectId: Int64, feature: [UInt8])]) {
        self.objectIds = features.map(\.objectId)
        self.json = features.map { ArraySlice($0.feature) }
    }

    /// No features.
    public static let empty = ResultFeatures(encoded: [])

    /// The number of features.
    public var count: Int { objectIds.count }

    /// Calls `body` with each feature's object id and GeoJSON bytes, in order.
    public func forEachFeature(_ body: (Int64, ArraySlice<UInt8>) throws -> Void) rethrows {
        for index in objectIds.indices { try body(objectIds[index], json[index]) }
    }
}
