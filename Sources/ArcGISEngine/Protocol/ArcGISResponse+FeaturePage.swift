import FeatureGeometry
import FeatureQuerySupport
import FeatureService

extension ArcGISResponse {
    /// One page of a `query` answer: `features[{attributes, geometry}]` with `exceededTransferLimit`,
    /// `objectIdFieldName`, `fields` (→ ``FeaturePage/fieldOrder``) and `spatialReference` (the default for
    /// geometries that do not name their own). GeoJSON-shaped pages (`f=geojson`: `properties`, GeoJSON
    /// geometries in WGS 84, the flag under `properties.exceededTransferLimit`) are read too.
    ///
    /// Each feature's object id comes from `attributes[objectIdField]`, else a case-insensitive match, else the
    /// response's `objectIdFieldName` (services differ in the case they send): a feature without one is
    /// `.missingObjectID`, because the engine deduplicates and repairs pages by id. An id must be an integral
    /// number in Int64's range. A null, absent or empty geometry (`{"x": null}`, `"NaN"`) is nil; any other
    /// geometry that cannot be read is `.malformedResponse`, as is a body without a `features` array.
    ///
    /// - Parameter limits: bounds on the body (bytes, nesting) and on each geometry's vertices; beyond them
    ///   the page is `.limitExceeded`.
    static func featurePage(
        _ body: [UInt8], layer: String, objectIdField: String, limits: DecodingLimits = .default
    ) throws(FeatureServiceError) -> FeaturePage {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: limits, expecting: "a page of features")
        let items: [ParsedJSON]
        switch members["features"] {
        case .array(let array)?:
            items = array
        case nil:
            throw context.malformed("has no \"features\" member, so it is not a page of query results")
        case let other?:
            throw context.malformed("has \"features\" that are \(other.shapeDescription), not an array")
        }
        let spatialReference = members["spatialReference"].flatMap { value -> SpatialReference? in
            guard case .object = value else { return nil }
            return try? EsriJSON.decodeSpatialReference(value)
        }
        let objectIdFieldName = members["objectIdFieldName"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let fieldOrder = (members["fields"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
        let exceeded = members["exceededTransferLimit"]?.boolValue
            ?? members["properties"]?["exceededTransferLimit"]?.boolValue ?? false

        var decoder = FeatureDecoder(
            context: context, objectIdField: objectIdField, objectIdFieldName: objectIdFieldName,
            spatialReference: spatialReference, limits: limits)
        var features: [Feature] = []
        features.reserveCapacity(items.count)
        for (position, item) in items.enumerated() {
            features.append(try decoder.feature(item, number: position + 1))
        }
        return FeaturePage(
            features: features, exceededTransferLimit: exceeded, objectIdFieldName: objectIdFieldName,
            fieldOrder: fieldOrder, spatialReference: spatialReference)
    }
}

/// Decodes the features of one page, remembering which attribute key held the object id so the search for
/// it (exact, then case-insensitive) runs once per page, not once per feature.
private struct FeatureDecoder {
    let context: ResponseContext
    let objectIdField: String
    let objectIdFieldName: String?
    let spatialReference: SpatialReference?
    let limits: DecodingLimits
    private var resolvedKey: String?

    init(
        context: ResponseContext, objectIdField: String, objectIdFieldName: String?,
        spatialReference: SpatialReference?, limits: DecodingLimits
    ) {
        self.context = context
        self.objectIdField = objectIdField
        self.objectIdFieldName = objectIdFieldName
        self.spatialReference = spatialReference
        self.limits = limits
    }

    mutating func feature(_ item: ParsedJSON, number: Int) throws(FeatureServiceError) -> Feature {
        guard case .object(let members) = item else {
            throw context.malformed("has a feature (number \(number)) that is \(item.shapeDescription), not an object")
        }
        let isGeoJSON = members["attributes"] == nil
            && (members["properties"] != nil || members["type"]?.stringValue == "Feature")
        let attributesKey = isGeoJSON ? "properties" : "attributes"
        let attributes: [String: ParsedJSON]
        switch members[attributesKey] {
        case .object(let values)?: attributes = values
        case nil, .null?: attributes = [:]
        case let other?:
            throw context.malformed("has a feature (number \(number)) whose \(attributesKey) are \(other.shapeDescription), not an object")
        }

        var idValue = objectIdValue(in: attributes)
        if isGeoJSON, idValue == nil || idValue == .null { idValue = members["id"] }
        guard let idValue, !idValue.isNull else {
            var fieldText = "\"\(objectIdField)\""
            if let objectIdFieldName, objectIdFieldName.lowercased() != objectIdField.lowercased() {
                fieldText += " (or \"\(objectIdFieldName)\", as the response names it)"
            }
            throw FeatureServiceError(
                .missingObjectID,
                "Feature number \(number) from \(context.layer) has no value for the object-id field \(fieldText); "
                    + "include the field in outFields",
                layer: context.layer)
        }
        guard let objectId = idValue.int64Value else {
            throw context.malformed(
                "gives feature number \(number) an object id that is not an integer: \(idValue.shapeDescription)")
        }
        let geometry = try self.geometry(members["geometry"], geoJSON: isGeoJSON, objectId: objectId)
        return Feature(objectId: objectId, attributes: attributes, geometry: geometry)
    }

    /// The id's value: the key that worked last time, then `objectIdField`, then the response's
    /// `objectIdFieldName`, each exactly and then case-insensitively.
    private mutating func objectIdValue(in attributes: [String: ParsedJSON]) -> ParsedJSON? {
        if let resolvedKey, let value = attributes[resolvedKey] { return value }
        let candidates = [objectIdField] + (objectIdFieldName.map { [$0] } ?? [])
        for candidate in candidates {
            if let value = attributes[candidate] {
                resolvedKey = candidate
                return value
            }
            let folded = candidate.lowercased()
            if let match = attributes.first(where: { $0.key.lowercased() == folded }) {
                resolvedKey = match.key
                return match.value
            }
        }
        return nil
    }

    private func geometry(_ value: ParsedJSON?, geoJSON: Bool, objectId: Int64) throws(FeatureServiceError) -> Geometry? {
        guard let value, !value.isNull else { return nil }
        if case .object(let members) = value, members.isEmpty { return nil }
        do {
            if geoJSON {
                return try GeoJSON.decode(value, spatialReference: .wgs84, limits: limits)
            }
            return try EsriJSON.decode(value, defaultSpatialReference: spatialReference, limits: limits)
        } catch let error as GeometryError {
            switch error.code {
            case .emptyGeometry:
                return nil
            case .limitExceeded:
                throw FeatureServiceError(
                    .limitExceeded,
                    "The geometry of feature \(objectId) from \(context.layer) is beyond the decoding limits: \(error.message)",
                    layer: context.layer)
            default:
                throw context.malformed("gives feature \(objectId) a geometry that cannot be read: \(error)")
            }
        } catch {
            throw context.malformed("gives feature \(objectId) a geometry that cannot be read: \(error)")
        }
    }
}
