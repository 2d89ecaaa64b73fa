@testable import ArcGISEngine
import FeatureService

extension GeoJSONFeatureList {
    /// Features written as GeoJSON the way the ArcGIS engine's reference conversion writes them: fixtures for
    /// tests of what the worker publishes.
    init(_ features: [Feature], fieldOrder: [String], layer: String) throws {
        var ids: [Int64] = []
        var json: [ArraySlice<UInt8>] = []
        for feature in features {
            var text = ""
            try FeatureGeoJSON.write(feature, fieldOrder: fieldOrder, layer: layer, to: &text)
            ids.append(feature.objectId)
            json.append(ArraySlice(text.utf8))
        }
        self.init(objectIds: ids, json: json)
    }
}
