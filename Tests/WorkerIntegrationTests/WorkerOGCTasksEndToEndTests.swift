import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// The worker's task guarantees for OGC collections, end to end through the embedded Kafka cluster: an
/// identical request joins a run, a cancel and a deadline stop one (aborting its transfer at the server), and
/// the result budget cuts a large features result instead of failing it.
@Suite("Worker OGC tasks end to end")
struct WorkerOGCTasksEndToEndTests {
    static let budget = 200_000

    @Test func sharingCancellingExpiringAndTheResultBudget() async throws {
        let harness = try await WorkerHarness(faults: [
            FaultRule(.latency(milliseconds: 1_500), pathContains: "/ogc/collections/USA_States/items"),
            FaultRule(.latency(milliseconds: 60_000), pathContains: "/ogc/collections/USA_Counties/items"),
            FaultRule(.latency(milliseconds: 60_000), pathContains: "/ogc/collections/USA_Highways/items"),
        ]) { $0.limits.maxResultTotalBytes = Self.budget }
        let server = harness.server
        let landing = server.ogcURL
        let (states, counties, highways, cities) = (
            try WorkerHarness.collection(.states), try WorkerHarness.collection(.counties),
            try WorkerHarness.collection(.highways), try WorkerHarness.collection(.cities))

        // The same query spelled twice on one task: the second joins the first's run.
        try await harness.send("share", WorkerHarness.ogcRequest(
            "first", task: "share", landing: landing, collection: states, query: #"{"where":"POP2000 > 5000000"}"#))
        #expect(await server.waitUntil { !$0.recentOGCItemRequests(states).isEmpty })
        try await harness.send("share", WorkerHarness.ogcRequest(
            "second", task: "share", landing: landing, collection: states, query: #"{"where":"POP2000>5000000","result":"ids"}"#))
        // A slow run cancelled by its task.
        try await harness.send("job", WorkerHarness.ogcRequest("job", task: "job", landing: landing, collection: counties))
        #expect(await server.waitUntil { !$0.recentOGCItemRequests(counties).isEmpty })
        try await harness.send("job", #"{"taskId":"job","cancel":true}"#)
        try await harness.send("slow", WorkerHarness.request(
            "slow", targets: [WorkerHarness.ogcTarget(landing, collection: highways)], query: "{}", extra: #","timeoutMs":800"#))
        try await harness.send("budget", WorkerHarness.ogcRequest(
            "budget", landing: landing, collection: cities,
            query: #"{"result":"features","returnGeometry":true,"maxFeatures":100000}"#))

        let outcomes = try await harness.outcomesByRequest(5).compactMapValues(\.first)
        let truth = try harness.dataset.groundTruthObjectIDs(.states, where: "POP2000 > 5000000")
        try #require(!truth.isEmpty)

        for id in ["first", "second"] {
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.firstLayer?.integerFeatureIDs?.sorted() == truth, "\(id)")
        }
        #expect(server.statistics.ogcItemRequests(states) == 1, "one run: the first request's page only")

        #expect(outcomes["job"]?.status == "cancelled")
        #expect(outcomes["job"]?.errorCode == "cancel_requested")
        #expect(await server.waitUntil(timeout: .seconds(20)) { statistics in
            statistics.recentOGCItemRequests(counties).contains { $0.abortedAt != nil }
        }, "the cancelled run's page was aborted at the server")

        #expect(outcomes["slow"]?.status == "expired")
        #expect(outcomes["slow"]?.errorCode == "deadline_exceeded")

        // Every city with geometry is far over the budget: a truncated result, not an error.
        let cut = outcomes["budget"]?.firstLayer
        let everyCity = try harness.dataset.groundTruthObjectIDs(.cities)
        #expect(outcomes["budget"]?.status == "succeeded", "\(String(describing: outcomes["budget"]?["error"]))")
        #expect(cut?["complete"] == .bool(false))
        #expect(cut?.text("incompleteReason") == "result_budget")
        let ids = cut?.integerFeatureIDs ?? []
        #expect(!ids.isEmpty && ids.count < everyCity.count, "\(ids.count) of \(everyCity.count) cities fit")
        #expect(Set(ids).isSubset(of: everyCity) && Set(ids).count == ids.count)
        #expect(cut?.integerGeoJSONIDs == ids, "features aligned with featureIds")
        #expect(cut?.integer("count") == everyCity.count, "no filter: the server's numberMatched")

        try await harness.stop()
    }
}
