package import FeatureGeometry
package import QueryLanguage

extension SampleDataset {
    /// The OBJECTIDs (ascending) of the features of `layer` that match a where clause and intersect an
    /// envelope, computed by brute force: every feature of the layer is visited, its attributes evaluated
    /// with the query language's evaluator and its geometry related with FeatureGeometry (features whose
    /// box lies wholly inside or outside the envelope are decided by the box). No spatial index, no
    /// selection cache, none of the query path: what the data holds, for tests to compare answers with.
    ///
    /// `envelope` may be in WGS 84 or Web Mercator (one without a spatial reference is taken to be in
    /// the layer's); it is projected to the layer's spatial reference. Throws the query language's error
    /// for a bad clause and FeatureGeometry's for an envelope it cannot project.
    package func groundTruthObjectIDs(_ layer: SampleLayer, where clause: String? = nil, envelope: Envelope? = nil) throws -> [Int] {
        let definition = definition(layer)
        return try groundTruth(
            source(layer), fields: definition.fields, spatialReference: definition.spatialReference, where: clause,
            envelope: envelope)
    }

    /// The OBJECTIDs (ascending, the OGC feature ids) of a Daraa collection's features that match, computed
    /// the same way (WGS 84 envelopes).
    package func groundTruthObjectIDs(_ collection: DaraaCollection, where clause: String? = nil, envelope: Envelope? = nil) throws -> [Int] {
        guard let store = daraa[collection] else { return [] }
        return try groundTruth(
            .generic(store), fields: DaraaGenerator.fields, spatialReference: .wgs84, where: clause, envelope: envelope)
    }

    /// One field's values for the given OBJECTIDs, read straight from the generated columns (`.null` for an id
    /// the layer does not hold); `nil` when the layer has no such field (names compare case-insensitively).
    /// What brute-force statistics, orderings and time windows (the demo's ground truth) are computed from,
    /// without the server's query, statistics or sort code.
    package func groundTruthValues(_ layer: SampleLayer, field: String, objectIDs: [Int]) -> [AttributeValue]? {
        let fields = definition(layer).fields
        guard let column = fields.firstIndex(where: { $0.name.lowercased() == field.lowercased() }) else { return nil }
        let source = source(layer)
        return objectIDs.map { id in source.contains(id - 1) ? source.value(column, id - 1) : .null }
    }

    private func groundTruth(
        _ source: FeatureSource, fields: [FieldDefinition], spatialReference: SpatialReference, where clause: String?,
        envelope: Envelope?
    ) throws -> [Int] {
        let names = fields.map(\.name)
        let schema = LayerSchema(fields: fields.map { LayerField(name: $0.name, type: $0.type, alias: $0.alias) })
        func fieldIndex(_ name: String) -> Int? { fields.firstIndex { $0.name.lowercased() == name.lowercased() } }
        var filter: CompiledFilter?
        var referenced: [Int] = []
        if let clause {
            let validated = try WhereClause(clause).validated(against: schema)
            filter = try validated.compile(fieldNames: names)
            referenced = validated.referencedFields.compactMap { fieldIndex($0) }
        }
        var spatial: SpatialFilter?
        var box: Envelope?
        if var query = envelope {
            if query.spatialReference == nil { query.spatialReference = spatialReference }
            let projected = try query.projected(to: spatialReference)
            box = projected
            spatial = SpatialFilter(geometry: .envelope(projected))
        }
        let reach = spatial?.searchEnvelope
        var record = [AttributeValue](repeating: .null, count: names.count)
        var ids: [Int] = []

        /// Decides one feature from its box, its geometry (built only when the box can't decide) and values.
        func visit(_ index: Int, _ extent: Envelope, _ geometry: () -> Geometry, _ value: (Int) -> AttributeValue) throws {
            if let spatial, let reach, let box {
                guard extent.intersects(reach) else { return }
                if !box.contains(extent) {
                    guard try spatial.matches(geometry()) else { return }
                }
            }
            if let filter {
                for field in referenced { record[field] = value(field) }
                guard filter.matches(record) else { return }
            }
            ids.append(index + 1)
        }

        switch source {
        case .parcels(let store, let stride):
            for index in Swift.stride(from: 0, to: store.count, by: stride) {
                try visit(index, store.extent(index), { store.polygon(index) }, { store.value($0, index) })
            }
        case .generic(let store):
            for index in 0..<store.count {
                guard let extent = store.geometries[index].extent else { continue }
                try visit(index, extent, { store.geometries[index] }, { store.value($0, index) })
            }
        case .table, .none:
            break
        }
        return ids
    }
}
