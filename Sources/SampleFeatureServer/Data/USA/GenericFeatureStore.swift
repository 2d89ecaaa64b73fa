import FeatureGeometry
import QueryLanguage

/// A small layer held as plain geometries and attribute columns, with FeatureGeometry's packed R-tree as
/// its index: the USA map service's cities, highways, states and counties (thousands of features, where
/// compactness does not matter). Feature `i` has OBJECTID `i + 1`.
final class GenericFeatureStore: Sendable {
    let geometries: [Geometry]
    /// One column per field, in field order; column 0 (the object id) is empty: ids are computed.
    let columns: [[AttributeValue]]
    let index: SpatialIndex
    let extent: Envelope

    init(geometries: [Geometry], columns: [[AttributeValue]], spatialReference: SpatialReference) throws {
        self.geometries = geometries
        self.columns = columns
        index = try SpatialIndex(extentsOf: geometries)
        var box = index.bounds ?? Envelope(xmin: 0, ymin: 0, xmax: 0, ymax: 0)
        box.spatialReference = spatialReference
        extent = box
    }

    var count: Int { geometries.count }

    func value(_ field: Int, _ index: Int) -> AttributeValue {
        field == 0 ? .integer(Int64(index + 1)) : columns[field][index]
    }

    /// Indices of the features that match, ascending, restricted to those `include` accepts.
    func matches(_ query: SpatialQuery, include: (Int) -> Bool) throws -> [Int32] {
        var result: [Int32] = []
        try index.forEach(intersecting: query.searchEnvelope) { (id: Int32) throws(any Error) in
            let position = Int(id)
            if include(position), try query.filter.matches(geometries[position]) { result.append(id) }
        }
        result.sort()
        return result
    }
}
