import FeatureGeometry
import SampleFeatureServer
import Testing

import QueryWorker
import FeatureQuerySupport
import WorkerTestSupport

/// The worker end to end: requests into the embedded Kafka cluster, queries against the sample feature
/// server, outcomes read back from the result and error topics.
@Suite("Worker end to end")
struct WorkerEndToEndTests {
    @Test func supersessionSharingRejectionAndResults() async throws {
        let harness = try await WorkerHarness(
            faults: [FaultRule(.latency(milliseconds: 60_000), pathContains: "LA_County_Parcels_Legacy/MapServer/0/query")])
        let server = harness.server

        // A: slow (60 s of latency on the legacy layer); B on the same task supersedes it.
        try await harness.send("t", WorkerHarness.request(
            "a", task: "t", url: harness.url(.legacyParcels), query: #"{"where":"UseType = 'Residential'"}"#))
        #expect(await server.waitUntil { !$0.recentQueries(.legacyParcels).isEmpty })
        let extent = SampleDataset.seedExtent
        let extentJSON = #"{"xmin":\#(extent.xmin),"ymin":\#(extent.ymin),"xmax":\#(extent.xmax),"ymax":\#(extent.ymax),"spatialReference":{"wkid":102100}}"#
        try await harness.send("t", WorkerHarness.request(
            "b", task: "t", url: harness.url(.parcels), query: #"{"namedWhere":"government","extent":\#(extentJSON)}"#))
        try await harness.send("c", WorkerHarness.request(
            "c", url: harness.url(.states), query: #"{"where":"POP2000 > 1000000","result":"count"}"#))
        try await harness.send(nil, "this is not JSON")
        try await harness.send("d", WorkerHarness.request(
            "d", url: "https://elsewhere.example/arcgis/rest/services/X/FeatureServer/0"))

        let byRequest = try await harness.outcomesByRequest(5)
        let outcomes = byRequest.compactMapValues(\.first)

        #expect(outcomes["a"]?.status == "superseded")
        #expect(outcomes["a"]?["supersededBy"] == .string("b"))
        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 }, "A's transfer was aborted at the server")

        #expect(outcomes["b"]?.status == "succeeded")
        let truth = try harness.dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'", envelope: extent)
        if case .array(let layers)? = outcomes["b"]?["layers"], case .array(let ids)? = layers.first?["objectIds"] {
            #expect(ids == truth.map { .number(Double($0)) })
        } else {
            Issue.record("b has no objectIds: \(String(describing: outcomes["b"]))")
        }

        #expect(outcomes["c"]?.status == "succeeded")
        let states = try harness.dataset.groundTruthObjectIDs(.states, where: "POP2000 > 1000000")
        if case .array(let layers)? = outcomes["c"]?["layers"] {
            #expect(layers.first?["count"] == .number(Double(states.count)))
        }

        #expect(outcomes["d"]?.status == "rejected")
        #expect(outcomes["d"]?.errorCode == "host_not_allowed")
        #expect(outcomes[""]?.status == "rejected")
        #expect(outcomes[""]?.errorCode == "invalid_json")

        try await harness.stop()
    }
}
