public import FeatureGeometry
import QueryLanguage

extension SampleDataset {
    /// The OBJECTIDs (ascending) of the features of `layer` that match a where clause and intersect an
    /// envelope, computed by brute force: every feature is visited, its full record built and its
    /// geometry related with FeatureGeometry. No spatial index, no selection cache, none of the query
    /// path: what the data holds, for tests to compare query results with.
    ///
    /// `envelope` may be in WGS 84 or Web Mercator (one without a spatial reference is taken to be in
    /// the layer's); it is projected to the layer's spatial reference. Throws the query language's error
    /// for a bad clause and FeatureGeometry's for an envelope it cannot project.
    public func groundTruthObjectIDs(_ layer: SampleLayer, where clause: String? = nil, envelope: Envelope? = nil) throws -> [Int] {
        let definition = definition(layer)
        let source = source(layer)
        let names = definition.fields.map(\.name)
        let filter = try clause.map { try WhereClause($0).validated(against: definition.schema).compile(fieldNames: names) }
        var spatial: SpatialFilter?
        if var box = envelope {
            if box.spatialReference == nil { box.spatialReference = definition.spatialReference }
            spatial = SpatialFilter(geometry: .envelope(try box.projected(to: definition.spatialReference)))
        }
        let reach = spatial?.searchEnvelope
        var record = [AttributeValue](repeating: .null, count: names.count)
        var ids: [Int] = []
        let total: Int
        switch source {
        case .parcels(let store, _): total = store.count
        case .generic(let store): total = store.count
        case .none: total = 0
        }
        for index in 0..<total where source.contains(index) {
            if let spatial, let reach {
                guard let extent = source.extent(index), extent.intersects(reach), let geometry = source.geometry(index),
                    try spatial.matches(geometry)
                else { continue }
            }
            if let filter {
                for field in names.indices { record[field] = source.value(field, index) }
                guard filter.matches(record) else { continue }
            }
            ids.append(index + 1)
        }
        return ids
    }
}
