import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// OGC API paging as real servers do it, end to end through the embedded Kafka cluster: quirks the worker
/// must page through to exactly the ground truth, and broken paging it must fail clearly without publishing
/// anything partial.
@Suite("Worker OGC quirks end to end")
struct WorkerOGCQuirksEndToEndTests {
    /// Every quirk a correct client pages through: opaque cursors in relative links, pages of 7, each page
    /// repeating the last feature of the one before, an empty page that links on, a `next` after the last.
    static let survivable = ["cursor", "relative-links", "max-limit-7", "duplicates", "empty-page", "spurious-next"]

    @Test func quirkyPagingStillGivesExactlyEveryMatch() async throws {
        let harness = try await WorkerHarness()
        let server = harness.server
        let quirky = server.ogcURL(quirks: Self.survivable)
        let cities = try WorkerHarness.collection(.cities)
        let states = try WorkerHarness.collection(.states)
        let clause = "ST = 'TX'"
        let daraa = DaraaCollection.culturePnt
        try await harness.send("filtered", WorkerHarness.ogcRequest(
            "filtered", landing: quirky, collection: cities, query: #"{"where":"\#(clause)"}"#))
        try await harness.send("whole", WorkerHarness.ogcRequest("whole", landing: quirky, collection: daraa.id))
        try await harness.send("unnumbered", WorkerHarness.ogcRequest(
            "unnumbered", landing: server.ogcURL(quirks: ["no-number-matched", "max-limit-7"]), collection: states))

        let outcomes = try await harness.outcomesByRequest(3).compactMapValues(\.first)
        let truth = try harness.dataset.groundTruthObjectIDs(.cities, where: clause)
        let everyState = try harness.dataset.groundTruthObjectIDs(.states)
        try #require(truth.count > 7 * 4, "enough matches for many pages")

        let expected: [(id: String, truth: [Int], filteredBy: String?)] = [
            ("filtered", truth, "server"), ("whole", Array(1...daraa.featureCount), nil), ("unnumbered", everyState, nil),
        ]
        for (id, ids, filteredBy) in expected {
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            let featureIDs = layer?.integerFeatureIDs ?? []
            #expect(featureIDs.sorted() == ids, "\(id): exactly the truth")
            #expect(Set(featureIDs).count == featureIDs.count, "\(id): duplicates across pages dropped")
            #expect(layer?["complete"] == .bool(true), "\(id)")
            #expect(layer?["incompleteReason"] == nil, "\(id)")
            #expect(layer?.integer("count") == ids.count, "\(id)")
            #expect(layer?.text("filteredBy") == filteredBy, "\(id)")
        }

        // The cursor links were followed (relative to each page), never a synthesized offset.
        let pages = server.statistics.recentOGCItemRequests(cities).filter { $0.path.hasPrefix("/ogc-quirks/") }
        #expect(pages.count > truth.count / 7, "pages of at most 7: \(pages.count) pages")
        #expect(pages.contains { $0.parameter("cursor") != nil })
        #expect(!pages.contains { $0.parameter("offset") != nil }, "the worker never writes an offset")

        try await harness.stop()
    }

    @Test func brokenPagingFailsClearlyAndAWrongTotalIsReported() async throws {
        let harness = try await WorkerHarness()
        let server = harness.server
        let states = try WorkerHarness.collection(.states)
        let counties = try WorkerHarness.collection(.counties)
        try await harness.send("cycle", WorkerHarness.ogcRequest(
            "cycle", landing: server.ogcURL(quirks: ["next-cycle", "max-limit-7"]), collection: states))
        try await harness.send("foreign", WorkerHarness.request("foreign", targets: [
            WorkerHarness.ogcTarget(server.ogcURL(quirks: ["other-origin", "max-limit-7"]), collection: states),
            WorkerHarness.ogcTarget(server.ogcURL, collection: counties),
        ], query: #"{"result":"features"}"#))
        try await harness.send("miscounted", WorkerHarness.ogcRequest(
            "miscounted", landing: server.ogcURL(quirks: ["wrong-number-matched"]), collection: states))

        let outcomes = try await harness.outcomesByRequest(3).compactMapValues(\.first)
        let everyState = try harness.dataset.groundTruthObjectIDs(.states)
        let everyCounty = try harness.dataset.groundTruthObjectIDs(.counties)
        try #require(everyState.count > 7 * 2)

        // A `next` back to a page already read: the only layer fails, so the request does.
        #expect(outcomes["cycle"]?.status == "failed")
        #expect(outcomes["cycle"]?.errorCode == "paging_cycle")
        #expect(outcomes["cycle"]?["error"]?["retryable"] == .bool(false))

        // A `next` to another origin: that layer fails with nothing of it published; the other is whole.
        #expect(outcomes["foreign"]?.status == "partial")
        let foreign = outcomes["foreign"]?.layerEntries ?? []
        #expect(foreign.count == 2)
        let failed = foreign.first
        #expect(failed?.text("url") == WorkerHarness.collectionURL(server.ogcURL(quirks: ["other-origin", "max-limit-7"]), states))
        #expect(failed?.text("status") == "failed")
        #expect(failed?["error"]?.text("code") == "foreign_next_link")
        #expect(failed?["featureIds"] == nil && failed?["features"] == nil && failed?["count"] == nil, "nothing partial")
        #expect(failed?["complete"] == .bool(false))
        let whole = foreign.last
        #expect(whole?.text("status") == "succeeded")
        #expect(whole?.integerFeatureIDs?.sorted() == everyCounty)
        #expect(whole?.integerGeoJSONIDs == whole?.integerFeatureIDs)
        // `localhost` is this same server: a followed link would arrive with the `offset` only links carry.
        let otherOrigin = server.statistics.recentOGCItemRequests(states).filter { $0.path.contains("other-origin") }
        #expect(!otherOrigin.isEmpty && !otherOrigin.contains { $0.parameter("offset") != nil }, "the foreign link was not followed")

        // numberMatched 10 more than what arrived: every feature, but flagged incomplete with the reason.
        let miscounted = outcomes["miscounted"]?.firstLayer
        #expect(outcomes["miscounted"]?.status == "succeeded")
        #expect(miscounted?.integerFeatureIDs?.sorted() == everyState)
        #expect(miscounted?["complete"] == .bool(false))
        #expect(miscounted?.text("incompleteReason") == "count_mismatch")
        #expect(miscounted?.integer("count") == everyState.count + 10, "no filter: count is the server's numberMatched")

        try await harness.stop()
    }
}
