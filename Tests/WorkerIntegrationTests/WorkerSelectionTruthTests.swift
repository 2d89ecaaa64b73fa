import FeatureQuerySupport
import PygeoapiFixture
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// Time windows and distinct values of Parcel_Sales through Kafka, compared with
/// PostgreSQL over the same rows, with the ArcGIS layer's capabilities on and off.
@Suite("Worker time windows and distinct values against SQL", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerSelectionTruthTests {
    static let year2017 = #"{"start":"2017-01-01T00:00:00Z","end":"2017-12-31T23:59:59.999Z"}"#
    static let year2017SQL = #"""
        SELECT "OBJECTID" FROM parcel_sales
        WHERE "SaleDate" BETWEEN '2017-01-01T00:00:00Z' AND '2017-12-31T23:59:59.999Z' ORDER BY 1
        """#

    /// The detector vectors' own window: from the 2021 spring change (03:00 PDT, inclusive) to the second
    /// 01:30 of the autumn change (inclusive), among OBJECTIDs 1–15.
    static let vectorWindow = #"{"start":"2021-03-14T10:00:00Z","end":"2021-11-07T09:30:00Z"}"#
    static let vectorWindowSQL = #"""
        SELECT "OBJECTID" FROM parcel_sales WHERE "OBJECTID" BETWEEN 1 AND 15
            AND "SaleDate" BETWEEN '2021-03-14T10:00:00Z' AND '2021-11-07T09:30:00Z' ORDER BY 1
        """#

    @Test func timeWindowsAgreeWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let sales = harness.url(.parcelSales)
        try await harness.send("2017", WorkerHarness.request("2017", url: sales, query: #"{"time":\#(Self.year2017)}"#))
        try await harness.send("2017-count", WorkerHarness.request(
            "2017-count", url: sales, query: #"{"time":\#(Self.year2017),"result":"count"}"#))
        let vectors = (1...15).map(String.init).joined(separator: ",")
        try await harness.send("vectors", WorkerHarness.request(
            "vectors", url: sales, query: #"{"objectIds":[\#(vectors)],"time":\#(Self.vectorWindow)}"#))
        try await harness.send("untimed", WorkerHarness.request(
            "untimed", url: harness.url(.parcels), query: #"{"time":\#(Self.year2017)}"#))

        let outcomes = try await harness.outcomesByRequest(4).compactMapValues(\.first)

        let year = try await truth.integers(Self.year2017SQL)
        try #require(year.count > 100 && year.count < 6_000, "2017 holds some sales, not all")
        #expect(outcomes["2017"]?.status == "succeeded", "\(String(describing: outcomes["2017"]))")
        #expect(outcomes["2017"]?.firstLayer?.integerObjectIDs?.sorted() == year)
        #expect(outcomes["2017-count"]?.firstLayer?.integer("count") == year.count)

        let window = try await truth.integers(Self.vectorWindowSQL)
        try #require(window.count >= 3 && window.count < 15, "the window's ends hold vectors: \(window)")
        #expect(outcomes["vectors"]?.firstLayer?.integerObjectIDs?.sorted() == window, "\(String(describing: outcomes["vectors"]))")

        // A time window on a layer without time fails that layer: it never answers every parcel.
        let untimed = outcomes["untimed"]
        #expect(untimed?.status == "failed", "\(String(describing: untimed))")
        #expect(untimed?.errorCode == "invalid_query", "\(String(describing: untimed))")
        let layerError = untimed?["error"]?["details"]?.elements("layers")?.first?["error"]
        #expect(layerError?.text("code") == "invalid_query", "the layer's own error: \(String(describing: layerError))")
        #expect(untimed?.layerEntries.contains { $0["objectIds"] != nil } != true, "no ids of every parcel")

        try await harness.stop()
    }

    @Test func distinctByServiceAndWorkerAgreesWithSQL() async throws {
        let harness = try await WorkerHarness()
        let truth = try await SalesTruth.shared(for: harness)
        let limited = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(SampleLayer.parcelSales.rawValue)=supportsDistinct=false"])
        let distinct = #"{"outFields":["UseType","DocType"],"result":"distinct"}"#
        let cases: [(id: String, url: String, by: String)] = [
            ("distinct-server", harness.url(.parcelSales), "server"), ("distinct-worker", limited.layerURL(.parcelSales), "worker"),
        ]
        for (id, url, _) in cases {
            try await harness.send(id, WorkerHarness.request(id, url: url, query: distinct))
        }
        let outcomes = try await harness.outcomesByRequest(cases.count).compactMapValues(\.first)

        let pairs = try await truth.rows(#"SELECT DISTINCT "UseType", "DocType" FROM parcel_sales"#)
        let expectedPairs = Set(pairs.map { TableComparison.key([$0["UseType"], $0["DocType"]]) })
        try #require(expectedPairs.contains { $0.hasSuffix("|null") }, "a null DocType is a value of its own")
        for (id, _, by) in cases {
            let outcome = outcomes[id]
            #expect(outcome?.status == "succeeded", "\(id): \(String(describing: outcome))")
            let layer = outcome?.firstLayer
            #expect(layer?.text("distinctBy") == by, "\(id)")
            let actual = (layer?.elements("distinct") ?? []).map { TableComparison.key([$0["UseType"], $0["DocType"]]) }
            #expect(actual.count == Set(actual).count, "\(id): each combination once")
            #expect(Set(actual) == expectedPairs, "\(id): \(actual.sorted()) vs SQL \(expectedPairs.sorted())")
        }

        await limited.shutdown()
        try await harness.stop()
    }
}
