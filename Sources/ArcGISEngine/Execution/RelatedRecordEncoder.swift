import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import QueryLanguage

/// A related record held until the result is assembled: its related object id (for deduplication and
/// ties), its order key and the JSON a result publishes.
struct HeldRelatedRecord: Sendable {
    var relatedId: Int64
    /// The values of the related order's fields (empty without one).
    var key: [AttributeValue]
    var json: [UInt8]
}

/// Turns rows of a related answer into ``HeldRelatedRecord``s: `{"attributes":{...}}` with the target's
/// output fields in the related table's field order, and `"geometry"` as GeoJSON (null when a feature has
/// none) when the target returns geometry. The same for `queryRelatedRecords` groups and for the related
/// table's own `query` (the fallback), so that both give the same bytes for the same record.
struct RelatedRecordEncoder: Sendable {
    let target: RelatedTarget
    private let orderColumns: AttributeColumns
    /// Each output field with its `"name":` written once (not once per record).
    private let outputKeys: [(name: String, key: [UInt8])]

    init(target: RelatedTarget) {
        self.target = target
        let names = target.orderBy.map(\.field)
        orderColumns = AttributeColumns(names: names, types: names.map { target.table.field(named: $0)?.type })
        outputKeys = target.outputFields.map { name in
            var writer = JSONWriter(capacity: name.utf8.count + 3)
            writer.key(escaping: name)
            return (name, writer.bytes)
        }
    }

    func record(_ row: RelatedRow, spatialReference: SpatialReference?) throws(FeatureServiceError) -> HeldRelatedRecord {
        let table = target.table
        guard let relatedId = Self.member(table.objectIdField, of: row.attributes)?.int64Value else {
            throw FeatureServiceError(
                .missingObjectID,
                "a related record of \(table.url) (\(table.name)) has no integer \(table.objectIdField); records cannot "
                    + "be told apart without it", layer: table.url)
        }
        var output = JSONWriter(capacity: 32 + outputKeys.count * 24)
        output.raw(#"{"attributes":{"#)
        var first = true
        for (name, key) in outputKeys {
            guard let value = Self.member(name, of: row.attributes) else { continue }
            if !first { output.raw(",") }
            first = false
            output.raw(key)
            output.value(value)
        }
        output.raw("}")
        if target.returnsGeometry {
            output.raw(#","geometry":"#)
            if let geometry = row.geometry {
                var text = ""
                do {
                    let decoded = try EsriJSON.decode(geometry, defaultSpatialReference: spatialReference)
                    try GeoJSON.write(decoded, to: &text)
                } catch {
                    throw FeatureServiceError(
                        .geometryConversion,
                        "related record \(relatedId) of \(table.url) cannot be written as GeoJSON: \(error)", layer: table.url)
                }
                output.rawText(text)
            } else {
                output.raw("null")
            }
        }
        output.raw("}")
        return HeldRelatedRecord(relatedId: relatedId, key: orderColumns.record(row.attributes), json: output.bytes)
    }

    /// `attributes[name]`, else the member whose name equals it ignoring case (services answer `PARCELAPN`
    /// for `ParcelAPN`).
    private static func member(_ name: String, of attributes: [String: ParsedJSON]) -> ParsedJSON? {
        attributes[name] ?? attributes.first { $0.key.caseInsensitiveEquals(name) }?.value
    }
}

/// An answer's records encoded where the answer was decoded (in the request's child task, in parallel with
/// the other requests), so the reading task only reserves and holds them.
struct EncodedRelatedPage: Sendable {
    var groups: [(objectId: Int64, records: [HeldRelatedRecord])]
    /// True when the service cut the answer at its transfer limit (or, paging, when rows follow).
    var exceededTransferLimit: Bool

    /// How many records the answer holds over all groups.
    var rowCount: Int { groups.reduce(0) { $0 + $1.records.count } }

    /// A `queryRelatedRecords` answer's groups, encoded.
    init(_ page: RelatedRecordsPage, encoder: RelatedRecordEncoder) throws(FeatureServiceError) {
        groups = []
        groups.reserveCapacity(page.groups.count)
        for group in page.groups {
            var records: [HeldRelatedRecord] = []
            records.reserveCapacity(group.rows.count)
            for row in group.rows { records.append(try encoder.record(row, spatialReference: page.spatialReference)) }
            groups.append((group.objectId, records))
        }
        exceededTransferLimit = page.exceededTransferLimit
    }

    /// A related table's `query` answer: one origin's records read by key.
    init(_ page: AttributePage, origin: Int64, encoder: RelatedRecordEncoder) throws(FeatureServiceError) {
        var records: [HeldRelatedRecord] = []
        records.reserveCapacity(page.rows.count)
        for (index, attributes) in page.rows.enumerated() {
            let geometry = index < page.geometries.count ? page.geometries[index] : nil
            records.append(
                try encoder.record(RelatedRow(attributes: attributes, geometry: geometry), spatialReference: page.spatialReference))
        }
        groups = [(origin, records)]
        exceededTransferLimit = page.exceededTransferLimit
    }
}
