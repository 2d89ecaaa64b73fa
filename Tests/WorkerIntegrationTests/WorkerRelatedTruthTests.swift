import FeatureQuerySupport
import PygeoapiFixture
import QueryWorker
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// `result: related` through Kafka against PostgreSQL's joins of the same tables, whatever the parcels layer
/// publishes about queryRelatedRecords: every (origin, record) pair, counts, order, fields and cuts, results
/// split into parts and put back together.
@Suite("Worker related records against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerRelatedTruthTests {
    static let parcelsPath = SampleLayer.parcels.rawValue
    /// Small parts, so that every large answer crosses several messages (and groups continue across them).
    static let partBytes = 64 * 1_024
    static let assessments = #"{"name":"Parcel_Assessments"}"#

    /// A `result: related` query of the parcels `OBJECTID <= limit`; `more` is added members.
    static func relatedQuery(originLimit limit: Int, relationship: String = assessments, more: String = "") -> String {
        #"{"where":"OBJECTID <= \#(limit)","result":"related","relationship":\#(relationship)\#(more)}"#
    }

    /// The parcels layer's capability combinations. Every one reads the 10,000 origins (parcel 2's 1,500
    /// assessments among them): they share one harness, each on a sample server of its own over the same
    /// data, and the five together take about ten seconds. `by` is who joins, as the engine decides:
    /// without related paging parcel 2's records, over the transfer limit, are read from the table by key.
    static let combinations: [(name: String, options: [String], quirks: [String], by: String)] = [
        ("published", [], [], "server"),
        ("no-paging", ["\(parcelsPath)=supportsQueryRelatedPagination=false"], [], "worker"),
        ("no-advanced", ["\(parcelsPath)=supportsAdvancedQueryRelated=false"], [], "server"),
        ("neither", ["\(parcelsPath)=supportsQueryRelatedPagination=false", "\(parcelsPath)=supportsAdvancedQueryRelated=false"], [], "worker"),
        ("short-chunk", [], ["\(parcelsPath)=related-short-chunk"], "server"),
    ]

    @Test func assessmentsOfTenThousandParcelsAgreeWithSQLWhateverTheLayerPublishes() async throws {
        let harness = try await WorkerHarness { settings in settings.limits.maxResultBytes = Self.partBytes }
        let truth = try await RelatedTruth.shared(for: harness)
        var servers: [SampleFeatureServer] = []
        var ids: [String: String] = [:]
        for combination in Self.combinations {
            var url = harness.url(.parcels)
            if !combination.options.isEmpty || !combination.quirks.isEmpty {
                let server = try await FeatureTableRequests.variantServer(harness.dataset, options: combination.options, quirks: combination.quirks)
                servers.append(server)
                url = server.layerURL(.parcels)
            }
            let id = "assessments-\(combination.name)"
            try await harness.send(id, WorkerHarness.request(id, url: url, query: Self.relatedQuery(originLimit: 10_000)))
            ids[id] = combination.by
        }
        let outcomes = try await harness.wholeOutcomes(Set(ids.keys))
        let expected = try await truth.pairs(RelatedTruth.assessmentPairsSQL(originLimit: 10_000))
        try #require(expected.filter { $0.origin == 2 }.count == 1_500, "parcel 2 has more assessments than a transfer")
        let perOrigin = Dictionary(grouping: expected, by: \.origin).mapValues(\.count)

        for (id, by) in ids.sorted(by: { $0.key < $1.key }) {
            let (outcome, parts) = try #require(outcomes[id], "\(id) answered")
            let layer = outcome.firstLayer
            #expect(outcome.status == "succeeded", "\(id): \(String(describing: outcome["error"]))")
            #expect(parts > 1, "\(id): a result of \(expected.count) records crosses several \(Self.partBytes)-byte parts")
            let pairs = layer?.relatedPairs ?? []
            #expect(
                pairs == expected, "\(id): \(pairs.count) records, SQL \(expected.count); first difference \(Self.firstDifference(pairs, expected))")
            #expect(layer?.integer("count") == expected.count && layer?["complete"] == .bool(true), "\(id)")
            #expect(layer?.text("relatedBy") == by, "\(id): joined by \(String(describing: layer?.text("relatedBy")))")
            #expect(layer?.text("relatedTable")?.hasSuffix(SampleLayer.parcelAssessments.rawValue) == true, "\(id)")
            let counts = layer?.relatedGroups.map { ($0.objectId ?? -1, $0.count ?? -1) } ?? []
            #expect(counts.allSatisfy { perOrigin[$0.0] == $0.1 }, "\(id): every group's count is SQL's")
        }
        for server in servers { await server.shutdown() }
        try await harness.stop()
    }

    /// `relatedOrderBy` (one key, and two with the nullable AssessedValue, whose nulls come as PostgreSQL orders
    /// them; ties by the related OBJECTID), `relatedWhere` and `relatedOutFields`, on the published layer and
    /// one without advanced related queries (the worker orders), and `maxFeatures` cutting the records in
    /// origin order, joined by the service and by the worker.
    @Test func orderFieldsFilterAndCutAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await RelatedTruth.shared(for: harness)
        let noAdvanced = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(Self.parcelsPath)=supportsAdvancedQueryRelated=false"])
        let neither = try await FeatureTableRequests.variantServer(
            harness.dataset,
            options: ["\(Self.parcelsPath)=supportsQueryRelatedPagination=false", "\(Self.parcelsPath)=supportsAdvancedQueryRelated=false"])
        // Two keys, the second nullable: the sample service, as ArcGIS over SQL Server does, puts nulls last
        // descending, so the worker finds its answer out of the contract's order and orders the records itself.
        // The years alone (never null) the service orders as the contract does, and the worker keeps its order.
        let orders: [(name: String, orderBy: String, sql: String, published: String)] = [
            ("two-keys", #"[{"field":"TaxYear","direction":"desc"},{"field":"AssessedValue","direction":"desc"}]"#,
             #"a."TaxYear" DESC NULLS FIRST, a."AssessedValue" DESC NULLS FIRST"#, "worker"),
            ("years", #"[{"field":"TaxYear","direction":"desc"}]"#, #"a."TaxYear" DESC NULLS FIRST"#, "server"),
        ]
        let cut = Self.relatedQuery(originLimit: 1_000, more: #","maxFeatures":50"#)
        var requests: [(id: String, url: String, query: String, orderedBy: String?)] = [
            ("cut-server", harness.url(.parcels), cut, nil), ("cut-worker", neither.layerURL(.parcels), cut, nil),
        ]
        for order in orders {
            let query = Self.relatedQuery(
                originLimit: 2_000,
                more: #","relatedWhere":"TaxYear >= 2020","relatedOutFields":["OBJECTID","TaxYear","AssessedValue"],"#
                    + #""relatedOrderBy":\#(order.orderBy)"#)
            requests.append(("\(order.name)-published", harness.url(.parcels), query, order.published))
            requests.append(("\(order.name)-no-advanced", noAdvanced.layerURL(.parcels), query, "worker"))
        }
        for request in requests {
            try await harness.send(request.id, WorkerHarness.request(request.id, url: request.url, query: request.query))
        }
        let outcomes = try await harness.wholeOutcomes(Set(requests.map(\.id)))

        for order in orders {
            let orderedRows = try await truth.rows("""
                SELECT p."OBJECTID" AS origin, a."OBJECTID", a."TaxYear", a."AssessedValue"
                FROM parcels p JOIN parcel_assessments a ON a."ParcelAPN" = p."APN"
                WHERE p."OBJECTID" <= 2000 AND a."TaxYear" >= 2020 ORDER BY p."OBJECTID", \(order.sql), a."OBJECTID"
                """)
            try #require(orderedRows.contains { $0["AssessedValue"] == .null }, "some assessed values are null")
            let expectedRecords = orderedRows.map { row in
                var attributes = row
                attributes["origin"] = nil
                return RelatedRecord(origin: row["origin"]?.numberValue.flatMap { Int(exactly: $0) } ?? -1, attributes: attributes)
            }
            for request in requests where request.id.hasPrefix(order.name + "-") {
                let id = request.id
                let layer = outcomes[id]?.outcome.firstLayer
                #expect(outcomes[id]?.outcome.status == "succeeded", "\(id): \(String(describing: outcomes[id]?.outcome["error"]))")
                let records = layer?.relatedGroups.flatMap { group in
                    group.records.map { RelatedRecord(origin: group.objectId ?? -1, attributes: $0["attributes"]?.objectValue ?? [:]) }
                } ?? []
                #expect(
                    records == expectedRecords,
                    "\(id): \(records.count) records, SQL \(expectedRecords.count); first difference \(Self.firstDifference(records, expectedRecords))")
                #expect(layer?.integer("count") == orderedRows.count && layer?["complete"] == .bool(true), "\(id)")
                #expect(layer?.text("orderedBy") == request.orderedBy, "\(id): ordered by \(String(describing: layer?.text("orderedBy")))")
            }
        }

        let firstFifty = try await truth.pairs(RelatedTruth.assessmentPairsSQL(originLimit: 1_000, extra: "LIMIT 50"))
        try #require(firstFifty.contains { $0.origin == 2 }, "the cut falls among parcel 2's records")
        for id in ["cut-server", "cut-worker"] {
            let layer = outcomes[id]?.outcome.firstLayer
            #expect(outcomes[id]?.outcome.status == "succeeded", "\(id)")
            #expect(layer?.relatedPairs == firstFifty, "\(id): \(String(describing: layer?.relatedPairs.prefix(60)))")
            #expect(layer?["complete"] == .bool(false) && layer?.text("incompleteReason") == "max_features", "\(id)")
        }
        for server in [noAdvanced, neither] { await server.shutdown() }
        try await harness.stop()
    }

    /// A related record under its origin, with every attribute it carries.
    struct RelatedRecord: Equatable, CustomStringConvertible {
        var origin: Int
        var attributes: [String: ParsedJSON]
        var description: String { "\(origin): \(attributes.sorted { $0.key < $1.key })" }
    }

    /// The first index where two sequences differ, with both elements, for a failing report.
    static func firstDifference<T: Equatable>(_ actual: [T], _ expected: [T]) -> String {
        let shorter = min(actual.count, expected.count)
        guard let index = (0..<shorter).first(where: { actual[$0] != expected[$0] }) ?? (actual.count == expected.count ? nil : shorter)
        else { return "none" }
        let got = index < actual.count ? "\(actual[index])" : "(end)"
        let want = index < expected.count ? "\(expected[index])" : "(end)"
        return "at \(index): \(got) vs SQL \(want)"
    }
}
