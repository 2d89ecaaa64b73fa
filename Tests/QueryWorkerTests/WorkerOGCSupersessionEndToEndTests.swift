import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker

/// Supersession of an OGC run in the middle of its paging, end to end through the embedded Kafka cluster:
/// the newer request of the task is answered, the older one is `superseded`, and its transfers are aborted at
/// the server (which then stops receiving its pages).
@Suite("Worker OGC supersession end to end")
struct WorkerOGCSupersessionEndToEndTests {
    /// Pages of 5 features at 200 ms each: the 3,503 cities would take hundreds of pages (minutes).
    static let quirks = ["max-limit-5"]
    static let pageLatency = 200

    @Test func aNewerRequestSupersedesAnOGCRunMidPagingAndItsTransfersAreAborted() async throws {
        let itemsPath = "/ogc-quirks/\(Self.quirks.joined(separator: ","))/collections/USA_Cities/items"
        let harness = try await WorkerHarness(faults: [FaultRule(.latency(milliseconds: Self.pageLatency), pathContains: itemsPath)])
        let server = harness.server
        let cities = try WorkerHarness.collection(.cities)
        let states = try WorkerHarness.collection(.states)
        func slowPages(_ statistics: SampleServerStatistics) -> [RecordedRequest] {
            statistics.recentRequests.filter { $0.path == itemsPath }
        }

        try await harness.send("t", WorkerHarness.ogcRequest(
            "slow", task: "t", landing: server.ogcURL(quirks: Self.quirks), collection: cities))
        #expect(await server.waitUntil { $0.ogcItemRequests(cities) >= 3 }, "the slow run is paging")
        let clause = "POP2000 > 5000000"
        try await harness.send("t", WorkerHarness.ogcRequest(
            "newer", task: "t", landing: server.ogcURL, collection: states, query: #"{"where":"\#(clause)","result":"count"}"#))

        let outcomes = try await harness.outcomesByRequest(2).compactMapValues(\.first)
        #expect(outcomes["slow"]?.status == "superseded")
        #expect(outcomes["slow"]?["supersededBy"] == .string("newer"))
        #expect(outcomes["slow"]?["layers"] == nil, "nothing of the superseded run is published")
        let truth = try harness.dataset.groundTruthObjectIDs(.states, where: clause)
        #expect(outcomes["newer"]?.status == "succeeded")
        #expect(outcomes["newer"]?.firstLayer?.integer("count") == truth.count)

        #expect(await server.waitUntil(timeout: .seconds(20)) { $0.aborted >= 1 }, "the slow run's transfers were aborted")
        // Once aborted, the run asks for no more pages: nothing new over several pages' latency.
        let seen = slowPages(server.statistics).count
        try await Task.sleep(for: .milliseconds(Self.pageLatency * 6))
        let after = slowPages(server.statistics)
        #expect(after.count == seen, "no page requested after the supersession (\(seen) then \(after.count))")
        #expect(after.count < 3_503 / 5 / 4, "the run stopped long before its end: \(after.count) pages")
        #expect(after.contains { $0.abortedAt != nil }, "at least one of its pages was in flight and aborted")

        try await harness.stop()
    }
}
