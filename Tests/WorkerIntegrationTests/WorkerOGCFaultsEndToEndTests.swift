import FeatureGeometry
import FeatureQuerySupport
import SampleFeatureServer
import Testing

import QueryWorker
import WorkerTestSupport

/// Spatial filters and server faults on OGC collections, end to end through the embedded Kafka cluster:
/// extents in WGS 84 and Web Mercator and a polygon select exactly the ground truth, passing faults are
/// retried to the whole answer, and lasting ones (and queries no server could answer) fail with the
/// contract's code.
@Suite("Worker OGC faults and extents end to end")
struct WorkerOGCFaultsEndToEndTests {
    @Test func extentsInEitherSpatialReferenceSelectTheTruth() async throws {
        let harness = try await WorkerHarness()
        let landing = harness.server.ogcURL
        let west = Envelope(xmin: -125, ymin: 32, xmax: -114, ymax: 42, spatialReference: .wgs84)
        let lowerLeft = WebMercator.project(longitude: west.xmin, latitude: west.ymin)
        let upperRight = WebMercator.project(longitude: west.xmax, latitude: west.ymax)
        let mercator = Envelope(xmin: lowerLeft.x, ymin: lowerLeft.y, xmax: upperRight.x, ymax: upperRight.y)
        let seed = SampleDataset.seedExtent
        let clause = "POP2000 > 10000"
        try await harness.send("lonlat", WorkerHarness.ogcRequest(
            "lonlat", landing: landing, collection: try WorkerHarness.collection(.cities),
            query: #"{"where":"\#(clause)","extent":\#(Self.json(west, wkid: 4326))}"#))
        try await harness.send("mercator", WorkerHarness.ogcRequest(
            "mercator", landing: landing, collection: try WorkerHarness.collection(.cities),
            query: #"{"extent":\#(Self.json(mercator, wkid: 3857))}"#))
        try await harness.send("seed", WorkerHarness.ogcRequest(
            "seed", landing: landing, collection: try WorkerHarness.collection(.parcels),
            query: #"{"namedWhere":"government","extent":\#(Self.json(seed, wkid: 102100))}"#))

        let ring = "[[-125,32],[-114,32],[-114,42],[-125,42],[-125,32]]"
        try await harness.send("polygon", WorkerHarness.ogcRequest(
            "polygon", landing: landing, collection: try WorkerHarness.collection(.cities),
            query: #"{"where":"\#(clause)","geometry":{"type":"Polygon","coordinates":[\#(ring)]}}"#))

        let outcomes = try await harness.outcomesByRequest(4).compactMapValues(\.first)
        let dataset = harness.dataset
        let expected: [(id: String, truth: [Int])] = [
            ("lonlat", try dataset.groundTruthObjectIDs(.cities, where: clause, envelope: west)),
            ("mercator", try dataset.groundTruthObjectIDs(.cities, envelope: west)),
            ("seed", try dataset.groundTruthObjectIDs(.parcels, where: "UseType = 'Government'", envelope: seed)),
        ]
        for (id, truth) in expected {
            try #require(!truth.isEmpty, "\(id): the extent holds matches")
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(layer?.integerFeatureIDs?.sorted() == truth, "\(id): exactly the truth")
            #expect(layer?["complete"] == .bool(true), "\(id)")
            #expect(layer?.integer("count") == truth.count, "\(id)")
            #expect(layer?.text("filteredBy") == "server", "\(id): a bbox the server applies")
        }
        #expect(try harness.dataset.groundTruthObjectIDs(.cities).count > expected[1].truth.count, "the extent excludes cities")
        // A GeoJSON polygon (here the same rectangle): its envelope as bbox, the relation checked by the worker.
        let polygon = outcomes["polygon"]?.firstLayer
        #expect(outcomes["polygon"]?.status == "succeeded", "\(String(describing: outcomes["polygon"]))")
        #expect(polygon?.integerFeatureIDs?.sorted() == expected[0].truth)
        #expect(polygon?["complete"] == .bool(true))
        let parcelPages = harness.server.statistics.recentOGCItemRequests(try WorkerHarness.collection(.parcels))
        #expect(parcelPages.allSatisfy { $0.parameter("bbox") != nil }, "the extent went to the server as bbox")

        try await harness.stop()
    }

    @Test func passingFaultsAreRetriedAndLastingOnesFailTheLayerByCode() async throws {
        let highwaysItems = "/ogc-quirks/max-limit-20/collections/USA_Highways/items"
        let harness = try await WorkerHarness(faults: [
            FaultRule(.http503(retryAfterSeconds: 0), pathContains: highwaysItems, trigger: .window(skip: 1, count: 2)),
            FaultRule(.truncatedBody, pathContains: "/ogc/collections/USA_States/items", trigger: .first(1)),
            FaultRule(.htmlPage(status: 200), pathContains: "/ogc/collections/USA_Counties/items"),
            FaultRule(.http500, pathContains: "/ogc/collections/AeronauticPnt/items"),
        ])
        let server = harness.server
        let landing = server.ogcURL
        try await harness.send("503", WorkerHarness.ogcRequest(
            "503", landing: server.ogcURL(quirks: ["max-limit-20"]), collection: try WorkerHarness.collection(.highways)))
        try await harness.send("truncated", WorkerHarness.ogcRequest(
            "truncated", landing: landing, collection: try WorkerHarness.collection(.states)))
        try await harness.send("html", WorkerHarness.ogcRequest(
            "html", landing: landing, collection: try WorkerHarness.collection(.counties)))
        try await harness.send("500", WorkerHarness.ogcRequest("500", landing: landing, collection: DaraaCollection.aeronauticPnt.id))
        try await harness.send("missing", WorkerHarness.ogcRequest("missing", landing: landing, collection: "No_Such_Collection"))
        try await harness.send("no-field", WorkerHarness.ogcRequest(
            "no-field", landing: landing, collection: try WorkerHarness.collection(.cities), query: #"{"where":"NO_SUCH_FIELD > 1"}"#))
        try await harness.send("no-collection", WorkerHarness.request(
            "no-collection", targets: [WorkerHarness.ogcTarget(landing)], query: "{}"))

        let outcomes = try await harness.outcomesByRequest(7).compactMapValues(\.first)
        let highways = try harness.dataset.groundTruthObjectIDs(.highways)
        try #require(highways.count > 20 * 2, "the highways take several pages of 20")

        for (id, truth) in [("503", highways), ("truncated", try harness.dataset.groundTruthObjectIDs(.states))] {
            let layer = outcomes[id]?.firstLayer
            #expect(outcomes[id]?.status == "succeeded", "\(id): \(String(describing: outcomes[id]))")
            #expect(layer?.integerFeatureIDs?.sorted() == truth, "\(id): the whole collection after the retry")
            #expect(layer?["complete"] == .bool(true), "\(id)")
        }
        #expect(server.statistics.faults(.http503) == 2 && server.statistics.faults(.truncatedBody) == 1)

        let failures: [(id: String, code: String, retryable: Bool)] = [
            ("html", "malformed_response", false), ("500", "http_status", true), ("missing", "not_found", false),
            ("no-field", "invalid_query", false),
        ]
        for (id, code, retryable) in failures {
            #expect(outcomes[id]?.status == "failed", "\(id): \(String(describing: outcomes[id]))")
            #expect(outcomes[id]?.errorCode == code, "\(id)")
            #expect(outcomes[id]?["error"]?["retryable"] == .bool(retryable), "\(id)")
        }
        #expect(server.statistics.faults(.http500) > 1, "a 500 is retried before the layer fails")
        #expect(server.statistics.ogcItemRequests(try WorkerHarness.collection(.cities)) == 0,
                "a field the queryables rule out fails before any items request")
        #expect(outcomes["no-collection"]?.status == "rejected")
        #expect(outcomes["no-collection"]?.errorCode == "missing_field")

        try await harness.stop()
    }

    /// An envelope as a request's `extent`.
    static func json(_ envelope: Envelope, wkid: Int) -> String {
        let corners = #""xmin":\#(envelope.xmin),"ymin":\#(envelope.ymin),"xmax":\#(envelope.xmax),"ymax":\#(envelope.ymax)"#
        return #"{\#(corners),"spatialReference":{"wkid":\#(wkid)}}"#
    }
}
