import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// One related record as a `queryRelatedRecords` group or a related table's `query` gives it.
struct RelatedRow: Sendable {
    var attributes: [String: ParsedJSON]
    /// Its Esri JSON geometry; nil for tables and when geometry was not asked for.
    var geometry: ParsedJSON?
}

/// One `queryRelatedRecords` answer: each origin's rows, in the answer's order.
struct RelatedRecordsPage: Sendable {
    var groups: [(objectId: Int64, rows: [RelatedRow])]
    /// True when the service cut the answer at its transfer limit (or, paging, when rows follow).
    var exceededTransferLimit: Bool
    /// The answer's `spatialReference`, the one its geometries are in.
    var spatialReference: SpatialReference?

    /// How many rows the answer holds over all groups.
    var rowCount: Int { groups.reduce(0) { $0 + $1.rows.count } }
}

extension ArcGISResponse {
    /// A `queryRelatedRecords` answer. Groups must name an integer `objectId` and hold `relatedRecords` with an
    /// `attributes` object each; anything else is `.malformedResponse`, and an ArcGIS error body the error it
    /// maps to. A missing `relatedRecordGroups` is read as no group (services omit it when nothing relates).
    static func relatedRecords(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> RelatedRecordsPage {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "related records")
        var groups: [(objectId: Int64, rows: [RelatedRow])] = []
        for (position, group) in (members["relatedRecordGroups"]?.arrayValue ?? []).enumerated() {
            guard let objectId = group["objectId"]?.int64Value else {
                throw context.malformed("has a related record group (number \(position + 1)) without an integer objectId")
            }
            var rows: [RelatedRow] = []
            for record in group["relatedRecords"]?.arrayValue ?? [] {
                guard let attributes = record["attributes"]?.objectValue else {
                    throw context.malformed("has a related record of origin \(objectId) without an \"attributes\" object")
                }
                rows.append(RelatedRow(attributes: attributes, geometry: record["geometry"].flatMap { $0.isNull ? nil : $0 }))
            }
            groups.append((objectId, rows))
        }
        let reference = members["spatialReference"].flatMap { try? EsriJSON.decodeSpatialReference($0) }
        return RelatedRecordsPage(
            groups: groups, exceededTransferLimit: members["exceededTransferLimit"]?.boolValue ?? false,
            spatialReference: reference)
    }

    /// A `queryRelatedRecords` answer to `returnCountOnly`: each origin's count (origins without a related
    /// record may be missing: zero).
    static func relatedCounts(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> [Int64: Int] {
        let context = ResponseContext(layer: layer)
        let members = try context.document(body, limits: .default, expecting: "related record counts")
        var counts: [Int64: Int] = [:]
        for group in members["relatedRecordGroups"]?.arrayValue ?? [] {
            guard let objectId = group["objectId"]?.int64Value, let count = group["count"]?.integerValue, count >= 0 else {
                throw context.malformed("has a related record count without an integer objectId and count")
            }
            counts[objectId, default: 0] += count
        }
        return counts
    }
}
