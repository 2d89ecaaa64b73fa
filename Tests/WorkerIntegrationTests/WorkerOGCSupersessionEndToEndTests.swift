import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// Supersession of an OGC run in the middle of its paging, end to end through the embedded Kafka cluster:
/// the newer request of the task is answered, the older one is `superseded`, and its transfers are aborted at
/// the server (which then stops receiving its pages).
@Suite("Worker OGC supersession end to end")
struct WorkerOGCSupersessionEndToEndTests {
    /// Pages of 5 features: the 3,503 cities would take hundreds of pages.
    static let quirks = ["max-limit-5"]
    /// Pages answered at once before every later page hangs for a minute: the run is mid-paging, with
    /// transfers in flight, whenever the newer request arrives, however slow the machine.
    static let quickPages = 3

    @Test func aNewerRequestSupersedesAnOGCRunMidPagingAndItsTransfersAreAborted() async throws {
        let itemsPath = "/ogc-quirks/\(Self.quirks.joined(separator: ","))/collections/USA_Cities/items"
        let harness = try await WorkerHarness(faults: [
            FaultRule(.latency(milliseconds: 60_000), pathContains: itemsPath, trigger: .window(skip: Self.quickPages, count: nil)),
        ])
        let server = harness.server
        let cities = try WorkerHarness.collection(.cities)
        let states = try WorkerHarness.collection(.states)
        func slowPages(_ statistics: SampleServerStatistics) -> [RecordedRequest] {
            statistics.recentRequests.filter { $0.path == itemsPath }
        }

        try await harness.send("t", WorkerHarness.ogcRequest(
            "slow", task: "t", landing: server.ogcURL(quirks: Self.quirks), collection: cities))
        #expect(await server.waitUntil { $0.ogcItemRequests(cities) >= Self.quickPages && slowPages($0).count > Self.quickPages },
                "the slow run is paging, a page in flight")
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
        // Once aborted, the run asks for no more pages.
        let seen = slowPages(server.statistics).count
        try await Task.sleep(for: .seconds(1))
        let after = slowPages(server.statistics)
        #expect(after.count == seen, "no page requested after the supersession (\(seen) then \(after.count))")
        #expect(after.contains { $0.abortedAt != nil }, "at least one of its pages was in flight and aborted")

        try await harness.stop()
    }
}
