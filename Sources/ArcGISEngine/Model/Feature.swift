package import FeatureGeometry
package import FeatureQuerySupport

/// One feature of a query result: its object id, its attributes as the service sent them, and its geometry
/// when it was asked for.
///
/// Attributes stay JSON values (`ParsedJSON`) so nothing is lost between the service and the GeoJSON the
/// caller receives; the field order handed back with structured features keeps the service's column order
/// for output.
package struct Feature: Sendable, Hashable {
    package var objectId: Int64
    package var attributes: [String: ParsedJSON]
    package var geometry: Geometry?

    package init(objectId: Int64, attributes: [String: ParsedJSON], geometry: Geometry? = nil) {
        self.objectId = objectId
        self.attributes = attributes
        self.geometry = geometry
    }
}

/// One decoded page of a `query` response with `f=json`.
struct FeaturePage: Sendable, Hashable {
    var features: [Feature]
    /// Whether the service says more features match than it sent (`exceededTransferLimit`, top level or, in
    /// GeoJSON, under `properties`).
    var exceededTransferLimit: Bool
    /// `objectIdFieldName` as the response names it, when it does.
    var objectIdFieldName: String?
    /// Field names in the order the response lists them (`fields`), for output.
    var fieldOrder: [String]
    /// The response's `spatialReference`: the one the geometries are in.
    var spatialReference: SpatialReference?

    init(
        features: [Feature], exceededTransferLimit: Bool, objectIdFieldName: String?, fieldOrder: [String],
        spatialReference: SpatialReference?
    ) {
        self.features = features
        self.exceededTransferLimit = exceededTransferLimit
        self.objectIdFieldName = objectIdFieldName
        self.fieldOrder = fieldOrder
        self.spatialReference = spatialReference
    }
}

/// A `returnIdsOnly=true` response.
struct ObjectIDPage: Sendable, Hashable {
    var objectIdFieldName: String?
    var objectIds: [Int64]

    init(objectIdFieldName: String?, objectIds: [Int64]) {
        self.objectIdFieldName = objectIdFieldName
        self.objectIds = objectIds
    }
}
