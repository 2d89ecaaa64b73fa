import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// `result: catalog` end to end: requests into the embedded Kafka cluster, the ArcGIS engine browsing the
/// sample feature server's USA MapServer, the catalog read back from the results topic.
@Suite("Worker catalog end to end")
struct WorkerCatalogEndToEndTests {
    static func catalog(_ outcome: ParsedJSON?) -> (entry: ParsedJSON?, items: [ParsedJSON]) {
        guard case .array(let layers)? = outcome?["layers"], let entry = layers.first else { return (nil, []) }
        guard case .array(let items)? = entry["catalog"] else { return (entry, []) }
        return (entry, items)
    }

    @Test func aServiceListsItsLayersAndACatalogSupersedesAQueryOfItsTask() async throws {
        let harness = try await WorkerHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "USA/MapServer/1/query")])
        let usa = harness.server.serviceURL(.usa)

        // A slow query of the highways, then a catalog of the same task: a different result kind is different
        // work, so the catalog supersedes the query instead of sharing its run.
        try await harness.send("browse", WorkerHarness.request("slow", task: "browse", url: harness.url(.highways)))
        #expect(await harness.server.waitUntil { !$0.recentQueries(.highways).isEmpty })
        try await harness.send("browse", WorkerHarness.request("whole", task: "browse", url: usa, query: #"{"result":"catalog"}"#))
        try await harness.send("some", #"{"requestId":"some","targets":[{"type":"arcgis","url":"\#(usa)","layers":[2,4]}],"#
            + #""query":{"result":"catalog"}}"#)
        try await harness.send("one", WorkerHarness.request("one", url: harness.url(.counties), query: #"{"result":"catalog"}"#))
        try await harness.send("filtered", WorkerHarness.request(
            "filtered", url: usa, query: #"{"result":"catalog","where":"POP2000 > 1"}"#))

        let outcomes = try await harness.outcomesByRequest(5).compactMapValues(\.first)
        #expect(outcomes["slow"]?.status == "superseded")
        #expect(outcomes["slow"]?["supersededBy"] == .string("whole"))

        #expect(outcomes["whole"]?.status == "succeeded")
        let whole = Self.catalog(outcomes["whole"])
        #expect(whole.entry?["url"] == .string(usa), "one entry per target, under the target's URL")
        #expect(whole.entry?["count"] == .number(5))
        #expect(whole.entry?["complete"] == .bool(true))
        #expect(whole.items.map { $0["id"] } == ["0", "1", "2", "3", "4"].map { .string($0) })
        #expect(whole.items.map { $0["title"] } == ["Cities", "Highways", "States", "Counties", "Elevation"].map { .string($0) })
        #expect(whole.items.first?["geometryType"] == .string("esriGeometryPoint"))
        #expect(whole.items.first?["url"] == .string(harness.url(.cities)))
        #expect(whole.items.prefix(4).allSatisfy { $0["queryable"] == .bool(true) })
        #expect(whole.items.last?["queryable"] == .bool(false), "the raster layer cannot be queried")

        let some = Self.catalog(outcomes["some"])
        #expect(outcomes["some"]?.status == "succeeded")
        #expect(some.items.map { $0["id"] } == [.string("2"), .string("4")])

        let one = Self.catalog(outcomes["one"])
        #expect(outcomes["one"]?.status == "succeeded")
        #expect(one.entry?["url"] == .string(harness.url(.counties)))
        #expect(one.items.map { $0["id"] } == [.string("3")])
        #expect(one.items.first?["geometryType"] == .string("esriGeometryPolygon"))

        #expect(outcomes["filtered"]?.status == "rejected")
        #expect(outcomes["filtered"]?.errorCode == "invalid_value")

        try await harness.stop()
    }
}
