package import FeatureGeometry

/// The generated data behind every layer, built once from a parcel count and a seed: the same two always
/// give the same features, ids and attributes.
///
/// Build one and share it between servers (``SampleFeatureServer/start(configuration:dataset:logger:)``):
/// generation is the only costly part of starting a server, so a test suite can run many servers on one
/// dataset. The ground-truth methods (``groundTruthObjectIDs(_:where:envelope:)``) answer what the data
/// holds by brute force, independently of the query path, for tests to compare query results with.
package final class SampleDataset: Sendable {
    /// The seed application's viewpoint: 34.03 N, 118.805 W (Malibu), where the parcels are densest.
    static let viewpointLatitude = 34.03
    /// The viewpoint's longitude in degrees.
    static let viewpointLongitude = -118.805
    /// The viewpoint in WGS 84.
    package static let viewpoint = Point(x: viewpointLongitude, y: viewpointLatitude, spatialReference: .wgs84)
    /// The viewpoint in Web Mercator (102100).
    package static let viewpointWebMercator: Point = {
        let position = WebMercator.project(longitude: viewpointLongitude, latitude: viewpointLatitude)
        return Point(position, spatialReference: .webMercator)
    }()
    /// The seed app's map extent: about 6 km × 4 km on the ground around the viewpoint (7,200 m × 4,800 m of
    /// Web Mercator at this latitude), in 102100. It holds about 3% of all parcels (about 70,000 of the
    /// default 2,400,000): Residential, Roll_LandValue > 1000000 and < 1000000, and TaxRateArea 10853 and 10860
    /// each match well over 2,000 of them (more than one page) at the default size.
    package static let seedExtent: Envelope = {
        let center = WebMercator.project(longitude: viewpointLongitude, latitude: viewpointLatitude)
        return Envelope(
            xmin: center.x - 3_600, ymin: center.y - 2_400, xmax: center.x + 3_600, ymax: center.y + 2_400,
            spatialReference: .webMercator)
    }()
    /// The number of parcels the executable generates unless told otherwise.
    package static let defaultParcelCount = 2_400_000
    /// About this many parcels make up the legacy (non-paginating) layer, whatever the dataset's size.
    static let legacyTargetCount = 30_000

    /// The number of parcels in ``SampleLayer/parcels``.
    package let parcelCount: Int
    /// The seed everything was generated from.
    package let seed: UInt64
    /// The legacy layer holds the parcels whose index is a multiple of this.
    package let legacyStride: Int

    let parcels: ParcelStore
    let usa: USAGenerator.Layers
    /// The time-aware parcel sales (``SampleLayer/parcelSales``).
    let sales: GenericFeatureStore
    /// The Daraa look-alike's collections (served by the OGC face only).
    let daraa: [DaraaCollection: GenericFeatureStore]
    let definitions: [SampleLayer: LayerDefinition]
    /// The parcels' related tables (``SampleLayer/parcelAssessments``, ``SampleLayer/parcelOwners``).
    let assessments: ParcelTable
    let owners: ParcelTable
    /// The counties of each state (by STATE_NAME, county indices ascending) and each state's index by name:
    /// the `State_Counties` relationship.
    let countiesByState: [String: [Int32]]
    let stateByName: [String: Int32]

    /// Generates the dataset: `parcelCount` parcels (at least 1) and the USA layers, from `seed`. Takes about
    /// a second per million parcels in a release build.
    package init(parcelCount: Int = SampleDataset.defaultParcelCount, seed: UInt64 = 1) throws {
        self.parcelCount = max(1, parcelCount)
        self.seed = seed
        parcels = ParcelGenerator.generate(count: self.parcelCount, seed: seed)
        legacyStride = max(1, self.parcelCount / Self.legacyTargetCount)
        usa = try USAGenerator.generate(seed: seed)
        sales = try ParcelSalesGenerator.generate(parcels: parcels, seed: seed)
        daraa = try DaraaGenerator.generate(seed: seed)
        assessments = ParcelTable(.assessments, parcelCount: self.parcelCount, seed: seed)
        owners = ParcelTable(.owners, parcelCount: self.parcelCount, seed: seed)
        let stateCounties = Self.stateCounties(usa)
        countiesByState = stateCounties.0
        stateByName = stateCounties.1
        var definitions: [SampleLayer: LayerDefinition] = [:]
        let parcelExtent = ParcelDensity.region
        for layer in SampleLayer.allCases {
            let extent: Envelope
            switch layer {
            case .parcels, .legacyParcels, .parcelAssessments, .parcelOwners: extent = parcelExtent
            case .parcelSales: extent = sales.extent
            case .cities: extent = usa.cities.extent
            case .highways: extent = usa.highways.extent
            case .states: extent = usa.states.extent
            case .counties, .elevation: extent = usa.counties.extent
            }
            definitions[layer] = LayerCatalog.definition(layer, extent: extent)
        }
        self.definitions = definitions
    }

    /// The number of features a layer holds (0 for the raster layer).
    package func featureCount(_ layer: SampleLayer) -> Int {
        source(layer).featureCount
    }

    /// The number of features a Daraa collection holds.
    package func featureCount(_ collection: DaraaCollection) -> Int {
        daraa[collection]?.count ?? 0
    }

    /// Every OBJECTID of a layer, ascending.
    package func objectIDs(_ layer: SampleLayer) -> [Int] {
        var ids: [Int] = []
        source(layer).forEachIndex { ids.append($0 + 1) }
        return ids
    }

    /// The layer's full extent, in its spatial reference.
    package func extent(_ layer: SampleLayer) -> Envelope {
        definition(layer).extent
    }

    /// The layer's spatial reference: Web Mercator for the parcels, WGS 84 for the USA service.
    package func spatialReference(_ layer: SampleLayer) -> SpatialReference {
        definition(layer).spatialReference
    }

    /// The names of the layer's fields, in metadata order (the object-id field first).
    package func fieldNames(_ layer: SampleLayer) -> [String] {
        definition(layer).fields.map(\.name)
    }

    /// Approximate heap bytes held by the parcels and their index.
    package var parcelMemoryFootprint: Int { parcels.memoryFootprint }

    func definition(_ layer: SampleLayer) -> LayerDefinition {
        definitions[layer] ?? LayerCatalog.definition(layer, extent: ParcelDensity.region)
    }

    func source(_ layer: SampleLayer) -> FeatureSource {
        switch layer {
        case .parcels: .parcels(parcels, stride: 1)
        case .legacyParcels: .parcels(parcels, stride: legacyStride)
        case .parcelSales: .generic(sales)
        case .cities: .generic(usa.cities)
        case .highways: .generic(usa.highways)
        case .states: .generic(usa.states)
        case .counties: .generic(usa.counties)
        case .elevation: .none
        case .parcelAssessments: .table(assessments)
        case .parcelOwners: .table(owners)
        }
    }
}
