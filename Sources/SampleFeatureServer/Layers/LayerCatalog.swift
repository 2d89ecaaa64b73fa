import FeatureGeometry
import QueryLanguage

/// The metadata of every layer: fields, limits, capabilities and versions, as the services publish them.
enum LayerCatalog {
    static let parcelFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("APN", .string, alias: "Assessor Parcel Number", length: 12),
        FieldDefinition("UseType", .string, alias: "Use Type", length: 30),
        FieldDefinition("TaxRateArea", .integer, alias: "Tax Rate Area"),
        FieldDefinition("Roll_LandValue", .integer, alias: "Roll Land Value"),
        FieldDefinition("Roll_ImpValue", .integer, alias: "Roll Improvement Value"),
        FieldDefinition("SitusCity", .string, alias: "Situs City", length: 40),
        FieldDefinition("YearBuilt", .smallInteger, alias: "Year Built"),
        FieldDefinition("LastSaleDate", .date, alias: "Last Sale Date"),
    ]

    static let cityFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("CITY_NAME", .string, alias: "City Name", length: 40),
        FieldDefinition("ST", .string, alias: "State", length: 2),
        FieldDefinition("POP2000", .integer, alias: "Population 2000"),
    ]

    static let highwayFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("ROUTE_NAME", .string, alias: "Route Name", length: 20),
        FieldDefinition("TYPE", .string, alias: "Type", length: 20),
        FieldDefinition("LENGTH", .double, alias: "Length (miles)"),
        FieldDefinition("POP2000", .integer, alias: "Population Served 2000"),
    ]

    static let stateFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("STATE_NAME", .string, alias: "State Name", length: 25),
        FieldDefinition("STATE_ABBR", .string, alias: "State Abbreviation", length: 2),
        FieldDefinition("STATE_FIPS", .string, alias: "State FIPS", length: 2),
        FieldDefinition("POP2000", .integer, alias: "Population 2000"),
    ]

    static let countyFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("NAME", .string, alias: "County Name", length: 32),
        FieldDefinition("STATE_NAME", .string, alias: "State Name", length: 25),
        FieldDefinition("FIPS", .string, alias: "FIPS", length: 5),
        FieldDefinition("POP2000", .integer, alias: "Population 2000"),
    ]

    /// The version the service reports: the parcels FeatureServer is 11.2, the first with ordered and counted
    /// queryRelatedRecords (`supportsAdvancedQueryRelated`) on feature services; map services get them at 11.3.
    static func version(_ service: SampleService) -> String {
        switch service {
        case .laCountyParcels: "11.2"
        case .laCountyParcelsLegacy: "10"
        case .usa: "11.1"
        }
    }

    static func definition(_ layer: SampleLayer, extent: Envelope) -> LayerDefinition {
        switch layer {
        case .parcels:
            var definition = feature(
                layer, "LA_County_Parcels", .polygon, parcelFields, display: "APN", max: 2000, capabilities: "Query",
                paginates: true, extent: extent, description: "Generated parcels of Los Angeles County.")
            definition.hasAttachments = true
            return definition
        case .parcelAssessments, .parcelOwners:
            return table(layer, extent: extent)
        case .parcelSales:
            var definition = feature(
                layer, "Parcel_Sales", .point, ParcelSalesGenerator.fields, display: "APN", max: 1000, capabilities: "Query",
                paginates: true, extent: extent,
                description: "Generated sales of the parcels, 2015-2024: a time-aware layer (timeInfo on SaleDate).")
            definition.timeInfo = LayerTimeInfo(
                field: 5, start: ParcelSalesGenerator.firstDate, end: ParcelSalesGenerator.lastDate)
            return definition
        case .legacyParcels:
            return LayerDefinition(
                layer: layer, name: "Parcels", type: "Feature Layer", geometryType: .polygon, fields: parcelFields,
                displayField: "APN", maxRecordCount: 1000, capabilities: "Map,Query,Data", supportsPagination: false,
                supportsAdvancedQueries: false, supportsGeoJSON: false, currentVersion: version(layer.service),
                spatialReference: .webMercator, extent: extent,
                description: "A subset of the parcels, served as an ArcGIS Server 10.0 layer (no pagination).",
                emptyIdsAsNull: true)
        case .cities:
            var definition = feature(
                layer, "Cities", .point, cityFields, display: "CITY_NAME", max: 1000, capabilities: "Map,Query,Data",
                paginates: true, extent: extent, description: "Generated cities.")
            definition.hasAttachments = true
            return definition
        case .highways:
            return feature(layer, "Highways", .polyline, highwayFields, display: "ROUTE_NAME", max: 1000,
                           capabilities: "Map,Query,Data", paginates: true, extent: extent, description: "Generated highways.")
        case .states:
            return feature(layer, "States", .polygon, stateFields, display: "STATE_NAME", max: 1000,
                           capabilities: "Map,Query,Data", paginates: true, extent: extent, description: "Generated states.")
        case .counties:
            return feature(layer, "Counties", .polygon, countyFields, display: "NAME", max: 1000,
                           capabilities: "Map,Query,Data", paginates: true, extent: extent, description: "Generated counties.")
        case .elevation:
            return LayerDefinition(
                layer: layer, name: "Elevation", type: "Raster Layer", geometryType: nil, fields: [], displayField: "",
                maxRecordCount: 1000, capabilities: "Map", supportsPagination: false, supportsAdvancedQueries: false,
                supportsGeoJSON: false, currentVersion: version(layer.service), spatialReference: .wgs84, extent: extent,
                description: "A raster layer: drawn by the map service, never queried.", emptyIdsAsNull: true)
        }
    }

    private static func feature(
        _ layer: SampleLayer, _ name: String, _ geometryType: GeometryType, _ fields: [FieldDefinition],
        display: String, max: Int, capabilities: String, paginates: Bool, extent: Envelope, description: String
    ) -> LayerDefinition {
        LayerDefinition(
            layer: layer, name: name, type: "Feature Layer", geometryType: geometryType, fields: fields,
            displayField: display, maxRecordCount: max, capabilities: capabilities, supportsPagination: paginates,
            supportsAdvancedQueries: true, supportsGeoJSON: true, currentVersion: version(layer.service),
            spatialReference: layer.service == .usa ? .wgs84 : .webMercator, extent: extent, description: description,
            emptyIdsAsNull: layer.service != .laCountyParcels)
    }
}
