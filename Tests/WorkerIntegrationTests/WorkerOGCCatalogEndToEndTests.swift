import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// Browsing OGC landing pages and mixing ArcGIS and OGC targets in one request, end to end through the
/// embedded Kafka cluster against the sample server's two faces.
@Suite("Worker OGC catalog end to end")
struct WorkerOGCCatalogEndToEndTests {
    /// The sample OGC face's collections, in the order its `/collections` lists them.
    static let collections = ["LA_County_Parcels", "USA_Cities", "USA_Highways", "USA_States", "USA_Counties", "LA_County_Parcel_Sales"]
        + DaraaCollection.allCases.map(\.id)

    @Test func landingPagesListTheirCollectionsBesideArcGISServices() async throws {
        let harness = try await WorkerHarness()
        let server = harness.server
        let (landing, noFilter) = (server.ogcURL, server.ogcURL(quirks: ["no-filter"]))
        let usa = server.serviceURL(.usa)
        let catalog = #"{"result":"catalog"}"#
        try await harness.send("browse", WorkerHarness.request("browse", targets: [WorkerHarness.ogcTarget(landing)], query: catalog))
        try await harness.send("mixed", WorkerHarness.request("mixed", targets: [
            WorkerHarness.arcgisTarget(usa), WorkerHarness.ogcTarget(noFilter),
            WorkerHarness.ogcTarget(landing, collection: "USA_States"), WorkerHarness.arcgisTarget(harness.url(.counties)),
        ], query: catalog))
        try await harness.send("unknown", WorkerHarness.request(
            "unknown", targets: [WorkerHarness.ogcTarget(landing, collection: "No_Such_Collection")], query: catalog))

        let outcomes = try await harness.outcomesByRequest(3).compactMapValues(\.first)

        #expect(outcomes["browse"]?.status == "succeeded")
        let browse = outcomes["browse"]?.layerEntries ?? []
        #expect(browse.count == 1, "one entry per target")
        let entry = browse.first
        #expect(entry?.text("url") == landing)
        #expect(entry?.integer("count") == Self.collections.count)
        #expect(entry?["complete"] == .bool(true))
        let items = entry?.elements("catalog") ?? []
        #expect(items.map { $0.text("id") } == Self.collections.map { Optional($0) })
        for item in items {
            let id = item.text("id") ?? "?"
            #expect(item.text("url") == WorkerHarness.collectionURL(landing, id), "\(id): its URL is a target")
            #expect(item.text("itemType") == "feature", "\(id)")
            let languages = Self.strings(item.elements("filterLanguages"))
            #expect(languages.contains("cql2-text"), "\(id): CQL2 can be pushed")
            #expect(item.elements("extent")?.count == 4, "\(id): a CRS84 bounding box")
            #expect(!(item.elements("crs") ?? []).isEmpty, "\(id): the #/crs reference resolved to the list")
        }
        let cities = items.first { $0.text("id") == "USA_Cities" }
        #expect(cities?.text("title") == "Cities")
        let queryables = Self.strings(cities?.elements("queryables"))
        #expect(queryables.contains("POP2000"))

        // ArcGIS and OGC targets answered in the targets' order, each as its kind browses.
        #expect(outcomes["mixed"]?.status == "succeeded")
        let mixed = outcomes["mixed"]?.layerEntries ?? []
        #expect(mixed.count == 4)
        guard mixed.count == 4 else { return try await harness.stop() }
        #expect(mixed[0].text("url") == usa)
        #expect(mixed[0].elements("catalog")?.map { $0.text("id") } == ["0", "1", "2", "3", "4"])
        #expect(mixed[1].text("url") == noFilter)
        let withoutFilter = mixed[1].elements("catalog") ?? []
        #expect(withoutFilter.count == Self.collections.count)
        #expect(withoutFilter.allSatisfy { $0.elements("filterLanguages") == [] }, "Part 1 only: the worker filters")
        #expect(mixed[2].text("url") == landing, "a catalog entry is under its target's URL")
        #expect(mixed[2].elements("catalog")?.map { $0.text("id") } == ["USA_States"])
        #expect(mixed[2].integer("count") == 1)
        #expect(mixed[3].text("url") == harness.url(.counties))
        #expect(mixed[3].elements("catalog")?.map { $0.text("id") } == ["3"])

        // The contract: a collection the landing page does not list is `not_found`.
        #expect(outcomes["unknown"]?.status == "failed", "\(String(describing: outcomes["unknown"]))")
        #expect(outcomes["unknown"]?.errorCode == "not_found")

        try await harness.stop()
    }

    @Test func oneClauseOverArcGISAndOGCSelectsTheSameFeatures() async throws {
        let harness = try await WorkerHarness()
        let landing = harness.server.ogcURL
        let clause = "ST = 'TX' AND POP2000 > 5000"
        for (id, result) in [("same-ids", "ids"), ("same-count", "count")] {
            try await harness.send(id, WorkerHarness.request(id, targets: [
                WorkerHarness.arcgisTarget(harness.url(.cities)),
                WorkerHarness.ogcTarget(landing, collection: try WorkerHarness.collection(.cities)),
            ], query: #"{"where":"\#(clause)","result":"\#(result)"}"#))
        }

        let outcomes = try await harness.outcomesByRequest(2).compactMapValues(\.first)
        let truth = try harness.dataset.groundTruthObjectIDs(.cities, where: clause)
        try #require(!truth.isEmpty)

        #expect(outcomes["same-ids"]?.status == "succeeded")
        let layers = outcomes["same-ids"]?.layerEntries ?? []
        #expect(layers.map { $0.text("url") } == [harness.url(.cities), WorkerHarness.collectionURL(landing, "USA_Cities")])
        #expect(layers.first?["objectIds"] == .array(truth.map { .number(Double($0)) }), "ArcGIS: ascending objectIds")
        #expect(layers.last?.integerFeatureIDs?.sorted() == truth, "OGC: the same features by id")
        #expect(layers.last?.text("filteredBy") == "server")
        #expect(layers.allSatisfy { $0.integer("count") == truth.count && $0["complete"] == .bool(true) })

        let counts = outcomes["same-count"]?.layerEntries ?? []
        #expect(outcomes["same-count"]?.status == "succeeded")
        #expect(counts.map { $0.integer("count") } == [truth.count, truth.count])
        #expect(counts.allSatisfy { $0["featureIds"] == nil && $0["objectIds"] == nil }, "a count carries no ids")

        try await harness.stop()
    }

    static func strings(_ values: [ParsedJSON]?) -> [String] {
        (values ?? []).compactMap { if case .string(let text) = $0 { text } else { nil } }
    }
}
