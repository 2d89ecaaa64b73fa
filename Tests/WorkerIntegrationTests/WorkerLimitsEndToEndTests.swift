import FeatureQuerySupport
import FeatureGeometry
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// The worker's request bounds end to end, through the embedded Kafka cluster:
/// `maxTargets` and `maxLayers` as the flags set them, whole services without their raster layer, and an
/// output spatial reference refused on arrival.
@Suite("Worker limits end to end")
struct WorkerLimitsEndToEndTests {
    @Test func maxTargetsMaxLayersAndWholeServices() async throws {
        // The values as `query-worker run --max-targets 2 --max-layers 4` reads them.
        let flagged = try WorkerSettings.load(flags: ["maxTargets": "2", "maxLayers": "4"], environment: [:]).settings.limits
        let harness = try await WorkerHarness { settings in
            settings.limits.maxTargets = flagged.maxTargets
            settings.limits.maxLayers = flagged.maxLayers
        }
        let server = harness.server
        func target(_ url: String, layers: String? = nil) -> String {
            #"{"type":"arcgis","url":"\#(url)"\#(layers.map { #","layers":\#($0)"# } ?? "")}"#
        }
        func send(_ id: String, _ targets: [String], query: String = #"{"result":"count"}"#) async throws {
            try await harness.send(id, #"{"requestId":"\#(id)","targets":[\#(targets.joined(separator: ","))],"query":\#(query)}"#)
        }
        let (states, cities, usa) = (harness.url(.states), harness.url(.cities), server.serviceURL(.usa))
        try await send("three", [target(states), target(cities), target(harness.url(.counties))])
        try await send("two", [target(states), target(cities)])
        try await send("usa", [target(usa)])
        try await send("usa-and-one", [target(usa), target(harness.url(.parcels))])
        try await send("five-named", [target(usa, layers: "[0,1,2,3]"), target(harness.url(.parcels))])
        try await send("out-sr", [target(states)], query: #"{"result":"features","outSpatialReference":{"wkid":2229}}"#)

        let outcomes = try await harness.outcomesByRequest(6).compactMapValues(\.first)

        #expect(outcomes["three"]?.status == "rejected")
        #expect(outcomes["three"]?.errorCode == "too_many_targets")
        #expect(outcomes["two"]?.status == "succeeded")

        // Every feature layer of the service, not its raster layer: succeeded, not partial.
        #expect(outcomes["usa"]?.status == "succeeded")
        if case .array(let layers)? = outcomes["usa"]?["layers"] {
            #expect(layers.map { $0["url"] } == [SampleLayer.cities, .highways, .states, .counties].map { .string(server.layerURL($0)) })
        } else {
            Issue.record("usa has no layers: \(String(describing: outcomes["usa"]))")
        }

        #expect(outcomes["usa-and-one"]?.status == "failed")
        #expect(outcomes["usa-and-one"]?.errorCode == "too_many_layers")
        #expect(outcomes["five-named"]?.status == "rejected")
        #expect(outcomes["five-named"]?.errorCode == "too_many_layers")
        #expect(outcomes["out-sr"]?.status == "rejected")
        #expect(outcomes["out-sr"]?.errorCode == "unsupported_spatial_reference")

        try await harness.stop()
    }
}
