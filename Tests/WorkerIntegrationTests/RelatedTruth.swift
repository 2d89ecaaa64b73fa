import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import Foundation
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// The related-records ground truth: SQL joins over the tables RelatedTablesDatabase read from a sample
/// server's plain `/query` (the harness's data), computed by PostgreSQL, independently of the worker and of the
/// server's `queryRelatedRecords`.
struct RelatedTruth {
    let database: PostGISDatabase

    /// The shared database, after checking it holds the harness's data.
    static func shared(for harness: WorkerHarness) async throws -> RelatedTruth {
        let loaded = RelatedTablesDatabase.dataset
        try #require(
            harness.dataset.parcelCount == loaded.parcelCount && harness.dataset.seed == loaded.seed,
            "PostgreSQL holds the tables of the harness's dataset")
        let truth = RelatedTruth(database: try await RelatedTablesDatabase.shared().database)
        for (table, layer, _) in RelatedTablesDatabase.tables {
            let count = try await truth.database.psql("SELECT count(*) FROM \(table)")
            try #require(Int(count.trimmingCharacters(in: .whitespacesAndNewlines)) == harness.dataset.featureCount(layer), "every row of \(table)")
        }
        return truth
    }

    /// The rows `sql` selects, as JSON objects (`json_agg`: numbers, strings, null), in its order.
    func rows(_ sql: String) async throws -> [[String: ParsedJSON]] {
        let text = try await database.psql("SELECT coalesce(json_agg(t), '[]'::json) FROM (\(sql)) t")
        let parsed = try ParsedJSON(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
        let rows = try #require(parsed.arrayValue, "json_agg answers an array: \(text.prefix(200))")
        return try rows.map { try #require($0.objectValue, "a row is an object") }
    }

    /// The (origin, related) OBJECTID pairs `sql` selects as columns `origin` and `related`, in its order.
    func pairs(_ sql: String) async throws -> [RelatedPair] {
        try await rows(sql).map { row in
            RelatedPair(
                origin: try #require(row["origin"]?.numberValue.flatMap { Int(exactly: $0) }, "\(row)"),
                related: try #require(row["related"]?.numberValue.flatMap { Int(exactly: $0) }, "\(row)"))
        }
    }

    /// The assessments of the parcels `OBJECTID <= originLimit`, as the contract orders them (by origin, then
    /// related OBJECTID); `extra` is appended (e.g. `LIMIT 50`).
    static func assessmentPairsSQL(originLimit: Int, extra: String = "") -> String {
        """
        SELECT p."OBJECTID" AS origin, a."OBJECTID" AS related FROM parcels p JOIN parcel_assessments a ON a."ParcelAPN" = p."APN"
        WHERE p."OBJECTID" <= \(originLimit) ORDER BY 1, 2 \(extra)
        """
    }
}

/// One related record of a result: the origin feature it came under, and its own OBJECTID.
struct RelatedPair: Hashable, CustomStringConvertible {
    var origin: Int
    var related: Int
    var description: String { "\(origin)→\(related)" }
}

extension ParsedJSON {
    /// A layer entry's `related` groups, in order, as (objectId, records, count).
    var relatedGroups: [(objectId: Int?, records: [ParsedJSON], count: Int?)] {
        (elements("related") ?? []).map { ($0.integer("objectId"), $0.elements("records") ?? [], $0.integer("count")) }
    }

    /// Every related record as (origin, related OBJECTID; -1 where a record lacks one), in result order.
    var relatedPairs: [RelatedPair] {
        relatedGroups.flatMap { group in
            group.records.map { RelatedPair(origin: group.objectId ?? -1, related: $0["attributes"]?.integer("OBJECTID") ?? -1) }
        }
    }

    /// The error of a request's only layer: in its entry, or in the request's error when every layer failed.
    var onlyLayerError: ParsedJSON? {
        firstLayer?["error"] ?? self["error"]?["details"]?.elements("layers")?.first?["error"]
    }
}

/// The attachments the sample server lists on each feature's own resource (`<layer>/<oid>/attachments`),
/// the independent source for `result: attachments`: attachment ids per feature that has any.
enum AttachmentTruth {
    static func ids(_ server: SampleFeatureServer, _ layer: SampleLayer, objectIDs: ClosedRange<Int>) async throws -> [Int: [Int]] {
        let client = try HTTPClient(logger: WorkerHarness.logger)
        do {
            var result: [Int: [Int]] = [:]
            for objectID in objectIDs {
                let response = try await client.execute(HTTPRequest(url: "\(server.layerURL(layer))/\(objectID)/attachments?f=json"))
                let answer = try ParsedJSON(parsing: response.body)
                let infos = try #require(answer.elements("attachmentInfos"), "\(objectID): \(response.bodyString.prefix(200))")
                let ids = infos.compactMap { $0.integer("id") }
                try #require(ids.count == infos.count, "every attachment of \(objectID) has an integer id")
                if !ids.isEmpty { result[objectID] = ids.sorted() }
            }
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }
}
