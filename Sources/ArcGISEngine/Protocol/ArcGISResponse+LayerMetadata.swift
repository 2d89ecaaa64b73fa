import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage
import FeatureService

extension ArcGISResponse {
    /// A layer's metadata (`{layer}?f=json`), for a FeatureServer layer, a MapServer sublayer or a table.
    ///
    /// Essentials are checked strictly, because the engine cannot query without them: `fields` must be an
    /// array of `{name, type}` and the layer must name its object-id field (`objectIdField`, else the field
    /// of type `esriFieldTypeOID`); otherwise `.malformedResponse`. Group layers and other layers without
    /// fields that are not feature layers or tables (raster, annotation) are `.unsupportedLayer`, naming their
    /// sublayers, so the caller can query those instead.
    ///
    /// Optional settings fall back to ArcGIS's defaults when absent or of an unexpected type: `maxRecordCount`
    /// 1000 (also for 0 or less, which would stall paging), no capabilities, no pagination, no statistics,
    /// no standardized queries. Fields of types where clauses cannot use (geometry, blob, raster, XML, and
    /// types this engine does not know) are left out of ``LayerMetadata/fields`` and kept in
    /// `schema.unusableFields`, so a where clause naming one is refused with its type. The spatial reference
    /// is `extent.spatialReference`, else `sourceSpatialReference`, else nil (also for WKT-only ones).
    static func layerMetadata(_ body: [UInt8], url: String) throws(FeatureServiceError) -> LayerMetadata {
        let context = ResponseContext(layer: url)
        let members = try context.document(body, limits: .default, expecting: "layer metadata")
        let type = members["type"]?.stringValue
        let fieldValues: [ParsedJSON]
        switch members["fields"] {
        case .array(let items)?:
            fieldValues = items
        case nil, .null?:
            if let unsupported = unsupportedLayer(members, type: type, context: context) { throw unsupported }
            throw context.malformed("has no \"fields\" array, so it is not the metadata of a feature layer or table")
        case let other?:
            throw context.malformed("has \"fields\" that are \(other.shapeDescription), not an array")
        }

        var allFields: [(name: String, type: String, alias: String?)] = []
        allFields.reserveCapacity(fieldValues.count)
        for (position, value) in fieldValues.enumerated() {
            guard case .object(let field) = value else {
                throw context.malformed("has a field (number \(position + 1)) that is \(value.shapeDescription), not an object")
            }
            guard let name = field["name"]?.stringValue, !name.isEmpty else {
                throw context.malformed("has a field (number \(position + 1)) without a name")
            }
            guard let typeName = field["type"]?.stringValue else {
                throw context.malformed("has a field \"\(name)\" without a type")
            }
            allFields.append((name, typeName, field["alias"]?.stringValue))
        }
        let usable = allFields.compactMap { field in
            FieldType(esriName: field.type).map { LayerField(name: field.name, type: $0, alias: field.alias) }
        }

        let objectIdField: String
        if let named = members["objectIdField"]?.stringValue, !named.isEmpty {
            objectIdField = named
        } else if let oid = allFields.first(where: { $0.type == FieldType.objectID.esriName }) {
            objectIdField = oid.name
        } else {
            if let unsupported = unsupportedLayer(members, type: type, context: context), allFields.isEmpty {
                throw unsupported
            }
            throw context.malformed(
                "names no object-id field (no \"objectIdField\" and no field of type esriFieldTypeOID); the layer "
                    + "cannot be paged or counted by id")
        }

        let advanced = members["advancedQueryCapabilities"]?.objectValue ?? [:]
        let isTable = type?.lowercased() == "table"
        var maxRecordCount = members["maxRecordCount"]?.integerValue ?? 1000
        if maxRecordCount <= 0 { maxRecordCount = 1000 }

        var metadata = LayerMetadata(
            url: context.layer,
            id: members["id"]?.integerValue,
            name: members["name"]?.stringValue ?? "",
            type: type,
            geometryType: isTable ? nil : members["geometryType"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            objectIdField: objectIdField,
            fields: usable,
            maxRecordCount: maxRecordCount,
            capabilities: members["capabilities"]?.stringValue.map { commaSeparated($0) } ?? [],
            supportsPagination: advanced["supportsPagination"]?.boolValue ?? false,
            supportedQueryFormats: members["supportedQueryFormats"]?.stringValue.map {
                commaSeparated($0, lowercased: true)
            } ?? [],
            supportsStatistics: members["supportsStatistics"]?.boolValue
                ?? advanced["supportsStatistics"]?.boolValue ?? false,
            useStandardizedQueries: members["useStandardizedQueries"]?.boolValue
                ?? advanced["useStandardizedQueries"]?.boolValue ?? false,
            spatialReference: spatialReference(members))
        metadata.queryCapabilities = LayerQueryCapabilities(members)
        metadata.timeInfo = LayerTimeInfo(members)
        metadata.relationships = relationships(members)
        metadata.hasAttachments = members["hasAttachments"]?.boolValue ?? false
        metadata.dateFieldsTimeReference = DateFieldsTimeReference(members)
        // The initialiser's schema sees only the usable fields; keep the others' types for error messages.
        metadata.schema = LayerSchema(metadataFields: allFields.map { (name: $0.name, type: $0.type) })
        return metadata
    }

    /// `.unsupportedLayer` for a layer that holds no features of its own (a group layer), or is not a feature
    /// layer or table (raster, annotation...); nil for feature layers, tables and layers without a type.
    private static func unsupportedLayer(_ members: [String: ParsedJSON], type: String?, context: ResponseContext)
        -> FeatureServiceError?
    {
        guard let type, !type.isEmpty else { return nil }
        let lower = type.lowercased()
        guard lower != "feature layer", lower != "table" else { return nil }
        let subLayerIds = (members["subLayers"]?.arrayValue ?? []).compactMap { $0["id"]?.integerValue }
        var text = "\(context.layer) is a \(type)"
        var details: [String] = []
        if lower == "group layer" || !subLayerIds.isEmpty {
            text += ", which holds no features of its own"
            if !subLayerIds.isEmpty {
                let list = subLayerIds.map(String.init).joined(separator: ", ")
                text += "; query its sublayers (\(list))"
                details.append("subLayerIds: \(list)")
            }
        } else {
            text += ", not a feature layer or table; it cannot be queried for features"
        }
        return FeatureServiceError(.unsupportedLayer, text, layer: context.layer, details: details)
    }

    /// The `relationships` entries that name an id, a name and a related table; others (a service that lists
    /// something else there) are skipped rather than failing the layer's every query.
    private static func relationships(_ members: [String: ParsedJSON]) -> [LayerRelationship] {
        (members["relationships"]?.arrayValue ?? []).compactMap { entry in
            guard let id = entry["id"]?.integerValue, let table = entry["relatedTableId"]?.integerValue else { return nil }
            return LayerRelationship(
                id: id, name: entry["name"]?.stringValue ?? "", relatedTableId: table,
                cardinality: entry["cardinality"]?.stringValue ?? "", role: entry["role"]?.stringValue ?? "",
                keyField: entry["keyField"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// `extent.spatialReference`, else `sourceSpatialReference`; nil when neither names a WKID.
    private static func spatialReference(_ members: [String: ParsedJSON]) -> SpatialReference? {
        for candidate in [members["extent"]?["spatialReference"], members["sourceSpatialReference"]] {
            guard let candidate, case .object = candidate else { continue }
            if let reference = try? EsriJSON.decodeSpatialReference(candidate) { return reference }
        }
        return nil
    }
}
