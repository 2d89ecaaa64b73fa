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

    /// The path under `/arcgis/rest/services`, e.g. `USA/MapServer/1`.
    package var path: String { rawValue }

    /// The service's path, e.g. `USA/MapServer`.
    package var service: SampleService {
        switch self {
        case .parcels, .parcelSales: .laCountyParcels
        case .legacyParcels: .laCountyParcelsLegacy
        case .cities, .highways, .states, .counties, .elevation: .usa
        }
    }

    /// The layer id within its service.
    package var layerID: Int {
        switch self {
        case .parcels, .legacyParcels, .cities: 0
        case .highways, .parcelSales: 1
        case .states: 2
        case .counties: 3
        case .elevation: 4
        }
    }

    package var description: String { rawValue }
}

/// The services the sample server publishes.
package enum SampleService: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// A hosted-style FeatureServer (version 11.1) with the parcels layer.
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

    /// The layers of this service, by id.
    package var layers: [SampleLayer] { SampleLayer.allCases.filter { $0.service == self } }

    package var description: String { rawValue }
}
