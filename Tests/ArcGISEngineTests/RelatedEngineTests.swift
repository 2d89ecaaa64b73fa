import CurlHTTP
import FeatureGeometry
import FeatureQuerySupport
import FeatureService
import Foundation
import QueryLanguage
import SampleFeatureServer
import Testing

@testable import ArcGISEngine

/// `result: related` and `attachments` through the engine against the sample server, whatever the layer
/// supports: the pairs equal the related table's rows joined by key (read with plain `query` requests, not
/// `queryRelatedRecords`), and the result says who joined and ordered them.
@Suite("Related records and attachments against the sample server")
struct RelatedEngineTests {
    static let parcelsOption = "LA_County_Parcels/FeatureServer/0"

    /// The capability combinations of the parcels layer: its options, and whether the worker must join some
    /// origin itself (parcel 2's 1,500 records pass the transfer limit where the service cannot page them).
    static let combinations: [(options: [String], quirks: [String], workerJoins: Bool)] = [
        ([], [], false),
        (["\(parcelsOption)=supportsQueryRelatedPagination=false"], [], true),
        (["\(parcelsOption)=supportsAdvancedQueryRelated=false"], [], false),
        (["\(parcelsOption)=supportsQueryRelatedPagination=false", "\(parcelsOption)=supportsAdvancedQueryRelated=false"], [], true),
        (["\(parcelsOption)=supportsAdvancedQueryRelated=false"], ["\(parcelsOption)=related-short-chunk"], false),
    ]

    static func related(
        _ reference: RelationshipReference = .name("Parcel_Assessments"), where clause: String = "OBJECTID <= 1500",
        relatedWhere: String? = nil, outFields: [String] = ["*"], orderBy: [OrderTerm] = [], maxFeatures: Int? = nil,
        geometry: Bool = false
    ) throws -> ServiceQuery {
        ServiceQuery(
            whereClause: try WhereClause(clause), returnGeometry: geometry, maxFeatures: maxFeatures, result: .related,
            related: RelatedQuery(
                relationship: reference, whereClause: try relatedWhere.map { try WhereClause($0) }, outFields: outFields,
                orderBy: orderBy))
    }

    /// (origin, related OBJECTID) of a related selection, in its order; and the records' attributes.
    static func pairs(_ result: ServiceLayerResult) throws -> (pairs: [Pair], attributes: [[String: ParsedJSON]]) {
        guard case .related(let selection) = result.selection else { throw FeatureServiceError(.malformedResponse, "not related", layer: "") }
        var pairs: [Pair] = []
        var attributes: [[String: ParsedJSON]] = []
        for group in selection.groups {
            for record in group.records {
                let parsed = try ParsedJSON(parsing: String(decoding: record, as: UTF8.self))
                let values = try #require(parsed["attributes"]?.objectValue)
                pairs.append(Pair(origin: Int(group.objectId), related: try #require(values["OBJECTID"]?.integerValue)))
                attributes.append(values)
            }
        }
        return (pairs, attributes)
    }

    struct Pair: Hashable, Comparable, CustomStringConvertible {
        var origin: Int
        var related: Int
        static func < (a: Pair, b: Pair) -> Bool { (a.origin, a.related) < (b.origin, b.related) }
        var description: String { "\(origin)→\(related)" }
    }

    /// The truth for parcels 1…n: each parcel's APN and the assessments with that ParcelAPN, read with plain
    /// `query` requests (where clauses on the table), ascending by origin then related OBJECTID.
    static func truth(_ server: SampleFeatureServer, parcels n: Int, relatedWhere: String? = nil) async throws -> [Pair] {
        let client = try HTTPClient(logger: ArcGISTestSupport.logger)
        defer { Task { await client.shutdown() } }
        var apn: [String: Int] = [:]
        for start in stride(from: 1, through: n, by: 1000) {
            let rows = try await rows(client, server.layerURL(.parcels), where: "OBJECTID >= \(start) AND OBJECTID < \(start + 1000) AND OBJECTID <= \(n)", fields: "OBJECTID,APN")
            for row in rows { if let key = row["APN"]?.stringValue, let id = row["OBJECTID"]?.integerValue { apn[key] = id } }
        }
        var pairs: [Pair] = []
        let keys = apn.keys.sorted()
        for start in stride(from: 0, to: keys.count, by: 300) {
            let list = keys[start..<min(start + 300, keys.count)].map { "'\($0)'" }.joined(separator: ",")
            let clause = "ParcelAPN IN (\(list))" + (relatedWhere.map { " AND (\($0))" } ?? "")
            for row in try await rows(client, server.layerURL(.parcelAssessments), where: clause, fields: "OBJECTID,ParcelAPN") {
                guard let key = row["ParcelAPN"]?.stringValue, let origin = apn[key], let id = row["OBJECTID"]?.integerValue else { continue }
                pairs.append(Pair(origin: origin, related: id))
            }
        }
        return pairs.sorted()
    }

    /// Every row `where` selects, paged by offset.
    static func rows(_ client: HTTPClient, _ url: String, where clause: String, fields: String) async throws -> [[String: ParsedJSON]] {
        var rows: [[String: ParsedJSON]] = []
        while true {
            let request = HTTPRequest.formPost(url: url + "/query", fields: [
                ("f", "json"), ("where", clause), ("outFields", fields), ("orderByFields", "OBJECTID"),
                ("resultOffset", String(rows.count)), ("resultRecordCount", "1000"), ("returnGeometry", "false"),
            ])
            let body = try ParsedJSON(parsing: String(decoding: try await client.execute(request).body, as: UTF8.self))
            let features = body["features"]?.arrayValue ?? []
            rows += features.compactMap { $0["attributes"]?.objectValue }
            if features.isEmpty || body["exceededTransferLimit"]?.boolValue != true { return rows }
        }
    }

    @Test("every capability combination gives the join of the tables, complete, and says who joined", arguments: 0..<5)
    func combinations(_ index: Int) async throws {
        let combination = Self.combinations[index]
        try await ArcGISTestSupport.withEngine(queryOptions: combination.options, queryQuirks: combination.quirks) { server, engine in
            let result = try await engine.query(layer: server.layerURL(.parcels), try Self.related())
            let (pairs, _) = try Self.pairs(result)
            let truth = try await Self.truth(server, parcels: 1500)
            #expect(pairs.count == truth.count)
            #expect(pairs == truth, "records in origin order, each group by related OBJECTID")
            #expect(truth.contains { $0.origin == 2 } && truth.filter { $0.origin == 2 }.count == 1500)
            #expect(result.isComplete && result.count == truth.count)
            #expect(result.aggregatedBy == (combination.workerJoins ? .worker : .server))
            guard case .related(let selection) = result.selection else { return }
            #expect(selection.relatedTable == server.layerURL(.parcelAssessments))
            #expect(selection.groups.allSatisfy { $0.count == $0.records.count })
        }
    }

    @Test("relatedWhere, relatedOutFields and relatedOrderBy: the rows, fields and order asked for; who ordered", arguments: [true, false])
    func filteredAndOrdered(_ advanced: Bool) async throws {
        let options = advanced ? [] : ["\(Self.parcelsOption)=supportsAdvancedQueryRelated=false"]
        try await ArcGISTestSupport.withEngine(queryOptions: options) { server, engine in
            let query = try Self.related(
                where: "OBJECTID <= 400", relatedWhere: "TaxYear >= 2020", outFields: ["TaxYear"],
                orderBy: [OrderTerm(field: "TaxYear", descending: true)])
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            let (pairs, attributes) = try Self.pairs(result)
            let truth = try await Self.truth(server, parcels: 400, relatedWhere: "TaxYear >= 2020")
            #expect(Set(pairs) == Set(truth) && pairs.count == truth.count)
            #expect(attributes.allSatisfy { Set($0.keys) == ["OBJECTID", "TaxYear"] })
            #expect(attributes.allSatisfy { ($0["TaxYear"]?.integerValue ?? 0) >= 2020 })
            var previous: (origin: Int, year: Int, id: Int)?
            for (pair, values) in zip(pairs, attributes) {
                let year = values["TaxYear"]?.integerValue ?? 0
                if let previous, previous.origin == pair.origin {
                    #expect(previous.year > year || (previous.year == year && previous.id < pair.related))
                }
                previous = (pair.origin, year, pair.related)
            }
            #expect(result.orderedBy == (advanced ? .server : .worker))
        }
    }

    @Test("maxFeatures bounds the related records in all, in origin order")
    func maxFeatures() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let result = try await engine.query(layer: server.layerURL(.parcels), try Self.related(where: "OBJECTID <= 3000", maxFeatures: 100))
            let (pairs, _) = try Self.pairs(result)
            let truth = try await Self.truth(server, parcels: 3000)
            #expect(pairs == Array(truth.prefix(100)))
            #expect(!result.isComplete && result.incompleteReason == .maxFeatures)
        }
    }

    @Test("an unknown relationship lists the layer's; a related where clause is checked against the related table")
    func badRelationships() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let unknown = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.parcels), try Self.related(.name("Owners")))
            }
            #expect(unknown?.code == .invalidQuery)
            #expect(unknown?.message.contains("\"Parcel_Assessments\" (id 4)") == true && unknown?.message.contains("\"Parcel_Owner\" (id 9)") == true)
            let field = await #expect(throws: FeatureServiceError.self) {
                try await engine.query(layer: server.layerURL(.parcels), try Self.related(relatedWhere: "APN = 'x'"))
            }
            #expect(field?.code == .invalidQuery)
            #expect(field?.message.contains(server.layerURL(.parcelAssessments)) == true)
            let byId = try await engine.query(layer: server.layerURL(.parcels), try Self.related(.id(9), where: "OBJECTID <= 50"))
            guard case .related(let owners) = byId.selection else { Issue.record("owners"); return }
            #expect(owners.relatedTable == server.layerURL(.parcelOwners))
            #expect(owners.groups.allSatisfy { $0.records.count == 1 }, "one owner per parcel at most")
        }
    }

    @Test("states to counties: counties carry GeoJSON geometry, split chunks complete")
    func statesToCounties() async throws {
        try await ArcGISTestSupport.withEngine { server, engine in
            let query = try Self.related(.name("State_Counties"), where: "POP2000 > 1000000", geometry: true)
            let result = try await engine.query(layer: server.layerURL(.states), query)
            guard case .related(let selection) = result.selection else { Issue.record("related"); return }
            #expect(result.isComplete && !selection.groups.isEmpty)
            for group in selection.groups {
                for record in group.records {
                    let parsed = try ParsedJSON(parsing: String(decoding: record, as: UTF8.self))
                    #expect(parsed["geometry"]?["type"]?.stringValue == "Polygon" || parsed["geometry"]?["type"]?.stringValue == "MultiPolygon")
                }
            }
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            let states = try await Self.rows(client, server.layerURL(.states), where: "POP2000 > 1000000", fields: "OBJECTID,STATE_NAME")
            var expected = 0
            for state in states {
                let name = try #require(state["STATE_NAME"]?.stringValue)
                expected += try await Self.rows(
                    client, server.layerURL(.counties), where: "STATE_NAME = '\(name.replacingOccurrences(of: "'", with: "''"))'",
                    fields: "OBJECTID").count
            }
            await client.shutdown()
            #expect(selection.recordCount == expected && result.count == expected)
        }
    }

    @Test("attachments by queryAttachments or per feature: the same, tokens never in URLs", arguments: [true, false])
    func attachments(_ viaQuery: Bool) async throws {
        let options = viaQuery ? [] : ["\(Self.parcelsOption)=supportsQueryAttachments=false"]
        try await ArcGISTestSupport.withEngine(queryOptions: options) { server, engine in
            let query = ServiceQuery(whereClause: try WhereClause("OBJECTID <= 60"), result: .attachments)
            let result = try await engine.query(layer: server.layerURL(.parcels), query)
            guard case .attachments(let groups) = result.selection else { Issue.record("attachments"); return }
            #expect(result.isComplete)
            #expect(groups.map(\.objectId) == stride(from: 5, through: 60, by: 5).map(Int64.init))
            #expect(groups.first { $0.objectId == 10 }?.attachments.count ?? 0 > 1000, "parcel 10's 1,200 pass one answer's limit")
            #expect(result.aggregatedBy == .worker, "parcel 10 (or every feature) was read from its own resource")
            let client = try HTTPClient(logger: ArcGISTestSupport.logger)
            for group in groups.prefix(4) {
                let body = try await ArcGISTestSupport.fetch("\(server.layerURL(.parcels))/\(group.objectId)/attachments?f=json")
                let infos = try ParsedJSON(parsing: String(decoding: body, as: UTF8.self))["attachmentInfos"]?.arrayValue ?? []
                #expect(group.attachments.map(\.id) == infos.compactMap { $0["id"]?.int64Value }.sorted())
                #expect(group.attachments.allSatisfy { $0.url.hasPrefix(server.layerURL(.parcels) + "/\(group.objectId)/attachments/") })
            }
            await client.shutdown()
            let states = try await engine.query(layer: server.layerURL(.states), ServiceQuery(result: .attachments))
            guard case .attachments(let none) = states.selection else { Issue.record("attachments of states"); return }
            #expect(none.isEmpty && states.isComplete, "a layer without attachments answers none")
        }
    }
}

/// A related read stopped by its caller (a superseded or cancelled request) aborts its chunks at the server.
@Suite("Related records: cancellation")
struct RelatedCancellationTests {
    @Test("cancelling a related read aborts its queryRelatedRecords requests in flight")
    func cancellingAbortsChunks() async throws {
        try await ArcGISTestSupport.withEngine(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "/queryRelatedRecords")]
        ) { server, engine in
            let url = server.layerURL(.parcels)
            let query = try RelatedEngineTests.related(where: "OBJECTID <= 20000")
            let task = Task { try await engine.query(layer: url, query) }
            #expect(await server.waitUntil(timeout: .seconds(60)) { $0.serviceRequestsInProgress >= 2 })
            let cancelled = ContinuousClock.now
            task.cancel()
            let result = await task.result
            #expect(ContinuousClock.now - cancelled < .seconds(20), "the read must end without waiting for the 60 s answers")
            if case .failure(let error as FeatureServiceError) = result { #expect(error.code == .cancelled) } else {
                Issue.record("a cancelled read answered \(result)")
            }
            #expect(await server.waitUntil(timeout: .seconds(30)) { $0.aborted >= 2 })
        }
    }
}

/// The request's byte budget bounds related records and attachments as it bounds features.
@Suite("Related records: the result budget")
struct RelatedBudgetTests {
    @Test("a related read beyond the budget stops, holds what was reserved, and says result_budget")
    func relatedBeyondTheBudget() async throws {
        let budget = ResultBudget(limit: 256 << 10)
        try await ArcGISTestSupport.withEngine { server, engine in
            let target = ServiceTarget(kind: .arcgis, url: server.layerURL(.parcels))
            let outcomes = Array(await engine.query([target], try RelatedEngineTests.related(where: "OBJECTID <= 20000"), budget: budget).joined())
            guard case .success(let layer)? = outcomes.first?.result, case .related(let selection) = layer.selection else {
                Issue.record("no related answer: \(String(describing: outcomes.first?.result))")
                return
            }
            #expect(!layer.isComplete && layer.incompleteReason == .resultBudget)
            #expect(budget.isSpent && budget.used <= budget.limit)
            let held = selection.groups.reduce(0) { $0 + $1.records.reduce(0) { $0 + $1.count } }
            #expect(held > 0 && held <= budget.used)
            let asked = server.statistics.recentRequests.filter { $0.path.hasSuffix("/queryRelatedRecords") }.count
            #expect(asked < 20_000 * 3 / 1000, "reading stopped well before every record was asked for")
        }
    }
}
