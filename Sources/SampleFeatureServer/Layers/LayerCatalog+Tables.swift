import FeatureGeometry
import QueryLanguage

/// The parcels FeatureServer's tables: no geometry, type "Table", listed under the service's `tables`, queried
/// like layers (geometry parameters ignored) and related to the parcels by APN.
extension LayerCatalog {
    static let assessmentFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("ParcelAPN", .string, alias: "Parcel APN", length: 12),
        FieldDefinition("TaxYear", .smallInteger, alias: "Tax Year"),
        FieldDefinition("AssessedValue", .integer, alias: "Assessed Value"),
        FieldDefinition("Exemption", .string, alias: "Exemption", length: 30),
    ]

    static let ownerFields: [FieldDefinition] = [
        FieldDefinition("OBJECTID", .objectID),
        FieldDefinition("OwnerAPN", .string, alias: "Owner APN", length: 12),
        FieldDefinition("OwnerName", .string, alias: "Owner Name", length: 60),
        FieldDefinition("OwnerType", .string, alias: "Owner Type", length: 20),
    ]

    static func table(_ layer: SampleLayer, extent: Envelope) -> LayerDefinition {
        let assessments = layer == .parcelAssessments
        return LayerDefinition(
            layer: layer, name: assessments ? "Parcel_Assessments" : "Parcel_Owners", type: "Table", geometryType: nil,
            fields: assessments ? assessmentFields : ownerFields, displayField: assessments ? "ParcelAPN" : "OwnerName",
            maxRecordCount: 1000, capabilities: "Query", supportsPagination: true, supportsAdvancedQueries: true,
            supportsGeoJSON: false, currentVersion: version(layer.service), spatialReference: .webMercator, extent: extent,
            description: assessments
                ? "Generated yearly assessments of the parcels (0 to 6 a parcel)." : "Generated owners of the parcels.",
            emptyIdsAsNull: false)
    }
}
