import FeatureQuerySupport
import QueryLanguage

/// Writes statistics and distinct-value answers as ArcGIS does (MS doc, example four): one feature per row,
/// attributes only, with `fields` typed and `fieldAliases` (deprecated at 10, still sent). Hosted-style
/// (FeatureServer) answers also name the object-id field and always carry `exceededTransferLimit`, as hosted
/// services do and non-hosted ones do not (Esri/arcade-expressions #68).
enum AggregateResponseWriter {
    static func rows(_ table: AggregateTable, _ page: QueryPage, objectIdField: String? = nil) -> [UInt8] {
        var json = JSONWriter(capacity: 256 + page.range.count * 64)
        json.raw("{\"displayFieldName\":\"\"")
        if let objectIdField {
            json.raw(",\"objectIdFieldName\":")
            json.string(objectIdField)
            json.raw(",\"globalIdFieldName\":\"\"")
        }
        json.raw(",\"fieldAliases\":{")
        for (position, column) in table.columns.enumerated() {
            if position > 0 { json.raw(",") }
            json.key(escaping: column.name)
            json.string(column.alias)
        }
        json.raw("},\"fields\":[")
        for (position, column) in table.columns.enumerated() {
            if position > 0 { json.raw(",") }
            json.raw("{\"name\":")
            json.string(column.name)
            json.raw(",\"type\":")
            json.string(column.type.esriName)
            json.raw(",\"alias\":")
            json.string(column.alias)
            if let length = column.length {
                json.raw(",\"length\":")
                json.integer(length)
            }
            json.raw("}")
        }
        json.raw("],\"features\":[")
        for position in page.range {
            if position > page.range.lowerBound { json.raw(",") }
            json.raw("{\"attributes\":{")
            for (column, value) in table.rows[position].enumerated() {
                if column > 0 { json.raw(",") }
                json.key(escaping: table.columns[column].name)
                json.attribute(value)
            }
            json.raw("}}")
        }
        json.raw("]")
        if page.reportLimit || objectIdField != nil {
            json.raw(",\"exceededTransferLimit\":")
            json.bool(page.exceededTransferLimit)
        }
        json.raw("}")
        return json.bytes
    }

    /// `{"count":N}` of distinct combinations (returnDistinctValues with returnCountOnly).
    static func count(_ count: Int) -> [UInt8] {
        var json = JSONWriter(capacity: 32)
        json.raw("{\"count\":")
        json.integer(count)
        json.raw("}")
        return json.bytes
    }

    /// What real servers answer when they advertise statistics they cannot compute (quirk `statistics-fail`).
    static let cannotComplete = ArcGISServiceError(code: 500, message: "Cannot complete operation.")
}
