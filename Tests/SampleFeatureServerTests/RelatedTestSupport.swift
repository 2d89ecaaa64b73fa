import CurlHTTP
import Foundation
import SampleFeatureServer

/// Requests and readings shared by the related-records and attachment tests.
extension HTTPClient {
    /// `queryRelatedRecords` of `layer` (GET, f=json).
    func related(_ server: SampleFeatureServer, _ layer: SampleLayer, _ parameters: [(String, String)]) async throws -> [String: Any] {
        try await json(server.layerURL(layer) + "/queryRelatedRecords", parameters + [("f", "json")])
    }

    /// `queryAttachments` of `layer` (GET, f=json).
    func attachments(_ server: SampleFeatureServer, _ layer: SampleLayer, _ parameters: [(String, String)]) async throws -> [String: Any] {
        try await json(server.layerURL(layer) + "/queryAttachments", parameters + [("f", "json")])
    }

    /// The APN of each parcel OBJECTID, read through `/query`.
    func apns(_ server: SampleFeatureServer, _ objectIDs: [Int]) async throws -> [Int: String] {
        let answer = try await query(server, .parcels, [
            ("objectIds", objectIDs.map(String.init).joined(separator: ",")), ("outFields", "OBJECTID,APN"),
            ("returnGeometry", "false"), ("f", "json"),
        ])
        var result: [Int: String] = [:]
        for feature in answer.features {
            if let id = feature.attributes.int("OBJECTID"), let apn = feature.attributes["APN"] as? String { result[id] = apn }
        }
        return result
    }

    /// Every row of a table whose `key` is one of `values`, in OBJECTID order, read through `/query` pages.
    func tableRows(_ server: SampleFeatureServer, _ table: SampleLayer, key: String, in values: [String]) async throws -> [[String: Any]] {
        let list = values.map { "'\($0)'" }.joined(separator: ",")
        var rows: [[String: Any]] = []
        while true {
            let page = try await query(server, table, [
                ("where", "\(key) IN (\(list))"), ("outFields", "*"), ("orderByFields", "OBJECTID"),
                ("resultOffset", String(rows.count)), ("resultRecordCount", "1000"), ("f", "json"),
            ])
            rows += page.features.map(\.attributes)
            if page.exceededTransferLimit != true || page.features.isEmpty { return rows }
        }
    }
}

extension Dictionary where Key == String, Value == Any {
    /// `relatedRecordGroups` as (origin OBJECTID, related records' attributes).
    var relatedGroups: [(objectID: Int, rows: [[String: Any]])] {
        (self["relatedRecordGroups"] as? [[String: Any]] ?? []).map { group in
            (group.int("objectId") ?? -1, (group["relatedRecords"] as? [[String: Any]] ?? []).map(\.attributes))
        }
    }

    /// The related records themselves (attributes and geometry), over all groups.
    var relatedRecords: [[String: Any]] {
        (self["relatedRecordGroups"] as? [[String: Any]] ?? []).flatMap { $0["relatedRecords"] as? [[String: Any]] ?? [] }
    }

    /// (origin OBJECTID, related OBJECTID) of every row, in answer order.
    var relatedPairs: [Pair] {
        relatedGroups.flatMap { group in group.rows.map { Pair(origin: group.objectID, related: $0.int("OBJECTID") ?? -1) } }
    }

    /// `attachmentGroups` as (parentObjectId, attachment infos).
    var attachmentGroups: [(objectID: Int, infos: [[String: Any]])] {
        (self["attachmentGroups"] as? [[String: Any]] ?? []).map { group in
            (group.int("parentObjectId") ?? -1, group["attachmentInfos"] as? [[String: Any]] ?? [])
        }
    }

    /// A layer's `advancedQueryCapabilities` flag.
    func capability(_ name: String) -> Bool? {
        (self["advancedQueryCapabilities"] as? [String: Any])?[name] as? Bool
    }
}

/// One row of a related answer: which origin it came under, and its own OBJECTID.
struct Pair: Hashable, CustomStringConvertible {
    var origin: Int
    var related: Int
    var description: String { "\(origin)→\(related)" }
}
