import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// One collection of the OGC face: an ArcGIS layer's features (the same store, so the same OBJECTIDs and
/// the same selection for the same clause) or a Daraa look-alike collection, with what the collection
/// documents say about it and the JSON fragments its features reuse.
struct OGCCollection: Sendable {
    let id: String
    let title: String
    let description: String
    let fields: [FieldDefinition]
    let geometryType: GeometryType
    let source: FeatureSource
    /// The ArcGIS layer serving the same features, if any (statistics count item requests against it too).
    let layer: SampleLayer?
    /// Where the features are stored: the parcels in Web Mercator, the rest in WGS 84.
    let storageReference: SpatialReference
    /// The overall extent in WGS 84 longitude/latitude.
    let extent: Envelope
    /// The field `datetime` applies to, and the interval its values span (epoch milliseconds).
    let temporal: (field: Int, start: Int64, end: Int64)?
    /// `"NAME":` per field.
    let propertyKeys: [[UInt8]]
    let schema: LayerSchema

    init(
        id: String, title: String, description: String, fields: [FieldDefinition], geometryType: GeometryType,
        source: FeatureSource, layer: SampleLayer?, storageReference: SpatialReference, extent: Envelope,
        temporal: (field: Int, start: Int64, end: Int64)?
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.fields = fields
        self.geometryType = geometryType
        self.source = source
        self.layer = layer
        self.storageReference = storageReference
        var box = extent
        if let reference = extent.spatialReference, !reference.isWGS84, let projected = try? extent.projected(to: .wgs84) {
            box = projected
        }
        self.extent = box
        self.temporal = temporal
        propertyKeys = fields.map { field in
            var json = JSONWriter(capacity: 24)
            json.key(escaping: field.name)
            return json.bytes
        }
        schema = LayerSchema(fields: fields.map { LayerField(name: $0.name, type: $0.type, alias: $0.alias) })
    }

    var storageCRS: OGCCRS { storageReference.isWebMercator ? .epsg3857 : .crs84 }

    /// The field's position, found ignoring letter case.
    func fieldIndex(_ name: String) -> Int? {
        let wanted = name.lowercased()
        return fields.firstIndex { $0.name.lowercased() == wanted }
    }
}

/// The OGC face's collections, in the order `/collections` lists them.
struct OGCCatalog: Sendable {
    let collections: [OGCCollection]
    private let byID: [String: Int]

    /// The collection ids of the ArcGIS layers (the Daraa ids are ``DaraaCollection/id``).
    static let layerCollectionIDs: [SampleLayer: String] = [
        .parcels: "LA_County_Parcels", .cities: "USA_Cities", .highways: "USA_Highways", .states: "USA_States",
        .counties: "USA_Counties", .parcelSales: "LA_County_Parcel_Sales",
    ]

    init(dataset: SampleDataset) {
        var collections: [OGCCollection] = []
        let order: [SampleLayer] = [.parcels, .cities, .highways, .states, .counties, .parcelSales]
        for layer in order {
            guard let id = Self.layerCollectionIDs[layer] else { continue }
            let definition = dataset.definition(layer)
            var temporal: (field: Int, start: Int64, end: Int64)?
            if let time = definition.timeInfo {
                temporal = (time.field, time.start, time.end)
            } else if let field = definition.fields.firstIndex(where: { $0.type == .date }) {
                temporal = (field, 157_766_400_000, 1_735_689_599_000)  // 1975-01-01 .. 2024-12-31, the generator's range
            }
            collections.append(OGCCollection(
                id: id, title: definition.name, description: definition.description + " The same features as the ArcGIS layer \(layer.path).",
                fields: definition.fields, geometryType: definition.geometryType ?? .point, source: dataset.source(layer),
                layer: layer, storageReference: definition.spatialReference, extent: definition.extent, temporal: temporal))
        }
        for daraa in DaraaCollection.allCases {
            guard let store = dataset.daraa[daraa] else { continue }
            collections.append(OGCCollection(
                id: daraa.id, title: daraa.title,
                description: "Generated look-alike of Daraa (Syria) OpenStreetMap data in the Topographic Data Store schema.",
                fields: DaraaGenerator.fields, geometryType: daraa.geometryType, source: .generic(store), layer: nil,
                storageReference: .wgs84, extent: store.extent, temporal: (3, 1_388_534_400_000, 1_704_067_199_000)))
        }
        self.collections = collections
        var byID: [String: Int] = [:]
        for (position, collection) in collections.enumerated() { byID[collection.id] = position }
        self.byID = byID
    }

    subscript(_ id: String) -> OGCCollection? { byID[id].map { collections[$0] } }
}
