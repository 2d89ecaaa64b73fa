/// The layers the sample server publishes, by their path under `/arcgis/rest/services`.
///
/// Each case names one behaviour a client must cope with: a big paginating FeatureServer layer (parcels),
/// an old non-paginating MapServer layer (legacy parcels), small MapServer layers in WGS 84 of every
/// geometry type, and a raster layer that cannot be queried.
package enum SampleLayer: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// `LA_County_Parcels/FeatureServer/0`: every parcel; Web Mercator; maxRecordCount 2000; paginates.
    case parcels = "LA_County_Parcels/FeatureServer/0"
    /// `LA_County_Parcels_Legacy/MapServer/0`: a subset of the parcels (same OBJECTIDs) served as a 10.0
    /// server would: maxRecordCount 1000, no pagination (resultOffset/resultRecordCount and orderByFields
    /// are ignored), no GeoJSON; returnIdsOnly and objectIds work.
    case legacyParcels = "LA_County_Parcels_Legacy/MapServer/0"
    /// `USA/MapServer/0`: cities (points), WGS 84.
    case cities = "USA/MapServer/0"
    /// `USA/MapServer/1`: highways (polylines), WGS 84.
    case highways = "USA/MapServer/1"
    /// `USA/MapServer/2`: states (polygons), WGS 84.
    case states = "USA/MapServer/2"
    /// `USA/MapServer/3`: counties (polygons), WGS 84.
    case counties = "USA/MapServer/3"
    /// `USA/MapServer/4`: a raster layer (type "Raster Layer", capabilities "Map"), which has no fields and
    /// answers every query with an ArcGIS error: the layer a client must refuse to query.
    case elevation = "USA/MapServer/4"
    /// Listed last so that earlier cases keep their order. `LA_County_Parcels/FeatureServer/1`: the time-aware `Parcel_Sales` layer (points; 6,000 sales over
    /// 2015–2024 with `timeInfo` on SaleDate; fields APN, UseType, DocType, SalePrice, SaleDate), whose first
    /// rows are statistics detector vectors (see ``ParcelSalesGenerator``).
    case parcelSales = "LA_County_Parcels/FeatureServer/1"
    /// `LA_County_Parcels/FeatureServer/2`: the `Parcel_Assessments` table (no geometry), 0 to 6 rows per
    /// parcel keyed by `ParcelAPN`, the many side of relationship `Parcel_Assessments` (see ``ParcelTable``).
    case parcelAssessments = "LA_County_Parcels/FeatureServer/2"
    /// `LA_County_Parcels/FeatureServer/3`: the `Parcel_Owners` table, at most one row per parcel keyed by
    /// `OwnerAPN`, the one-to-one relationship `Parcel_Owner`.
    case parcelOwners = "LA_County_Parcels/FeatureServer/3"

    /// The path under `/arcgis/rest/services`, e.g. `USA/MapServer/1`.
    package var path: String { rawValue }

    /// The service's path, e.g. `USA/MapServer`.
    package var service: SampleService {
        switch self {
        case .parcels, .parcelSales, .parcelAssessments, .parcelOwners: .laCountyParcels
        case .legacyParcels: .laCountyParcelsLegacy
        case .cities, .highways, .states, .counties, .elevation: .usa
        }
    }

    /// The layer id within its service.
    package var layerID: Int {
        switch self {
        case .parcels, .legacyParcels, .cities: 0
        case .highways, .parcelSales: 1
        case .states, .parcelAssessments: 2
        case .counties, .parcelOwners: 3
        case .elevation: 4
        }
    }

    /// Whether the service publishes it under `tables` (a table has no geometry) rather than `layers`.
    package var isTable: Bool { self == .parcelAssessments || self == .parcelOwners }

    package var description: String { rawValue }
}

/// The services the sample server publishes.
package enum SampleService: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// A hosted-style FeatureServer (version 11.2) with the parcels and sales layers and two related tables.
    case laCountyParcels = "LA_County_Parcels/FeatureServer"
    /// A 10.0-era MapServer with the non-paginating parcels layer.
    case laCountyParcelsLegacy = "LA_County_Parcels_Legacy/MapServer"
    /// A MapServer (version 11.1) with cities, highways, states, counties and a raster layer.
    case usa = "USA/MapServer"

    /// The path under `/arcgis/rest/services`, e.g. `USA/MapServer`.
    package var path: String { rawValue }

    /// The service name (`USA`).
    package var name: String { String(rawValue.split(separator: "/")[0]) }
    /// The service type (`FeatureServer` or `MapServer`).
    package var type: String { String(rawValue.split(separator: "/")[1]) }

    /// The layers of this service, by id (tables apart: ``tables``).
    package var layers: [SampleLayer] { SampleLayer.allCases.filter { $0.service == self && !$0.isTable } }
    /// The tables of this service, by id.
    package var tables: [SampleLayer] { SampleLayer.allCases.filter { $0.service == self && $0.isTable } }
    /// Layers and tables: what a numbered path under the service can name.
    package var members: [SampleLayer] { SampleLayer.allCases.filter { $0.service == self } }

    package var description: String { rawValue }
}
