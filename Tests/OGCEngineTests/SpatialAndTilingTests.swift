import FeatureGeometry
import FeatureService
import HTTPTestServer
import Synchronization
import Testing

@testable import OGCEngine
import HummingbirdCore

/// The query geometry as `bbox` (split at the antimeridian), the exact relation in the worker, and large
/// collections fetched as tiles at once.
@Suite("OGC spatial filters and tiles")
struct SpatialAndTilingTests {
    /// A server honouring `bbox` (several boxes' features meet at x = ±180) over `points`, paged by `perPage`.
    static func bboxServer(_ points: [(Int, Double, Double)], perPage: Int) -> OGCTestServer.Items {
        { request in
            var selected = points
            if let text = request.queryItems.first(where: { $0.name == "bbox" })?.value {
                let box = text.split(separator: ",").compactMap { Double($0) }
                selected = points.filter { $0.1 >= box[0] && $0.1 <= box[2] && $0.2 >= box[1] && $0.2 <= box[3] }
            }
            let page = request.queryItems.first { $0.name == "page" }.flatMap { Int($0.value) } ?? 0
            let slice = selected.dropFirst(page * perPage).prefix(perPage)
            let next = (page + 1) * perPage < selected.count ? "items?page=\(page + 1)&\(request.uri.query ?? "")" : nil
            return .json(OGCTestServer.page(
                slice.map { OGCTestServer.feature(id: "\($0.0)", x: $0.1, y: $0.2) }, next: next, numberMatched: selected.count))
        }
    }

    @Test func aBoxAcrossTheAntimeridianIsSplitInTwoAndMerged() async throws {
        let points = [(1, 175.0, 0.0), (2, -175.0, 0.0), (3, 0.0, 0.0), (4, 179.0, 50.0)]
        let server = try await OGCTestServer.start(items: Self.bboxServer(points, perPage: 10))
        let box = Geometry.envelope(Envelope(xmin: 170, ymin: -10, xmax: 190, ymax: 10, spatialReference: .wgs84))
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(geometry: box, result: .ids)) }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [.integer(1), .integer(2)])
        #expect(result.isComplete && result.filteredBy == .server)
        #expect(server.itemRequests.compactMap { $0.queryItems.first { $0.name == "bbox" }?.value } == ["170,-10,180,10", "-180,-10,-170,10"])
    }

    @Test func theExactRelationIsEvaluatedLocally() async throws {
        let points = [(1, 1.0, 2.0), (2, 9.0, 1.0), (3, 5.0, 6.0)]
        let server = try await OGCTestServer.start(items: Self.bboxServer(points, perPage: 10))
        // The triangle (0,0), (0,10), (10,10) holds the points with y > x: its envelope holds all three.
        let triangle = try GeoJSON.decode(#"{"type":"Polygon","coordinates":[[[0,0],[0,10],[10,10],[0,0]]]}"#)
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(geometry: triangle, result: .ids)) }
        let result = try #require(outcome.success)
        #expect(result.featureIds == [.integer(1), .integer(3)])
        #expect(result.filteredBy == .client)
    }

    @Test func aServerIgnoringBboxIsCaught() async throws {
        let server = try await OGCTestServer.start { _ in
            .json(OGCTestServer.page([OGCTestServer.feature(id: "1", x: 1, y: 1), OGCTestServer.feature(id: "2", x: 100, y: 50)]))
        }
        let box = Geometry.envelope(Envelope(xmin: 0, ymin: 0, xmax: 2, ymax: 2, spatialReference: .wgs84))
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(geometry: box, result: .ids)) }
        #expect(outcome.success?.featureIds == [.integer(1)])
        #expect(outcome.success?.filteredBy == .client)
    }

    @Test func aLargeCollectionIsFetchedAsTilesEachFeatureOnce() async throws {
        // 400 points on a 20 x 20 grid inside the extent, some on the tiles' shared edges (x or y = 5).
        var points: [(Int, Double, Double)] = []
        for row in 0..<20 {
            for column in 0..<20 { points.append((row * 20 + column + 1, Double(column) * 0.5, Double(row) * 0.5)) }
        }
        let server = try await OGCTestServer.start(
            collections: [OGCTestServer.collection("things", extent: "[0,0,10,10]")], items: Self.bboxServer(points, perPage: 25))
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(result: .ids)) }
        let result = try #require(outcome.success)
        #expect(result.isComplete)
        #expect(Set(result.featureIds.compactMap { $0 }) == Set(points.map { FeatureID.integer(Int64($0.0)) }))
        #expect(result.featureIds.count == 400)
        let tiled = server.itemRequests.compactMap { $0.queryItems.first { $0.name == "bbox" }?.value }
        // 16 pages of 25: 3 x 3 tiles (about two pages a tile).
        #expect(Set(tiled).count == 9)
        // The first page (ids 1-25), then the tiles in order, each in its server order: whichever tile answered first.
        var expected = Array(1...25)
        for tile in TilePlanner.tiles(region: [-180, -90, 180, 90], extent: [0, 0, 10, 10], perSide: 3) {
            for point in points where !expected.contains(point.0)
                && point.1 >= tile[0] && point.1 <= tile[2] && point.2 >= tile[1] && point.2 <= tile[3] {
                expected.append(point.0)
            }
        }
        #expect(result.featureIds == expected.map { FeatureID.integer(Int64($0)) })
    }

    @Test func tilesAreNotUsedWhenMaxFeaturesCuts() async throws {
        let points = (1...100).map { ($0, Double($0) * 0.05, 1.0) }
        let server = try await OGCTestServer.start(
            collections: [OGCTestServer.collection("things", extent: "[0,0,10,10]")], items: Self.bboxServer(points, perPage: 10))
        let outcome = try await server.withEngine { await server.query($0, ServiceQuery(maxFeatures: 15, result: .ids)) }
        #expect(outcome.success?.featureIds == (1...15).map { FeatureID.integer(Int64($0)) })
        #expect(server.itemRequests.allSatisfy { !$0.queryItems.contains { $0.name == "bbox" } })
    }

    /// `owns` is asked only of tiles that returned the feature: an edge point is returned by all four and owned
    /// by the first; an inner point, returned by one tile, is owned by whichever that is.
    @Test func theTileRuleOwnsAFeatureWithoutIdOnce() {
        let tiles = TilePlanner.tiles(region: [-180, -90, 180, 90], extent: [0, 0, 10, 10], perSide: 2)
        #expect(tiles.count == 4)
        #expect(tiles[0] == [-180, -90, 5, 5] && tiles[3] == [5, 5, 180, 90])
        func owners(_ x: Double, _ y: Double) -> [Int] {
            let point = try? GeoJSON.decode(#"{"type":"Point","coordinates":[\#(x),\#(y)]}"#)
            let returnedBy = tiles.indices.filter { tiles[$0][0] <= x && x <= tiles[$0][2] && tiles[$0][1] <= y && y <= tiles[$0][3] }
            return returnedBy.filter { TilePlanner.owns($0, of: tiles, geometry: point) }
        }
        #expect(owners(5, 5) == [0])
        #expect(owners(5, 7) == [2])
        #expect(owners(7, 7) == [3])
        #expect(owners(7, 5) == [1])
        #expect((0..<4).filter { TilePlanner.owns($0, of: tiles, geometry: nil) } == [0])
    }

    @Test func anEnvelopeInACRSTheCollectionServesGoesWithBboxCrs() async throws {
        let crs = "http://www.opengis.net/def/crs/EPSG/0/2229"
        let server = try await OGCTestServer.start(
            conformance: OGCTestServer.part1 + ["http://www.opengis.net/spec/ogcapi-features-2/1.0/conf/crs"],
            collections: [
                OGCTestServer.collection("things", extra: #","crs":["http://www.opengis.net/def/crs/OGC/1.3/CRS84","\#(crs)"]"#),
                OGCTestServer.collection("other"),
            ]
        ) { _ in .json(OGCTestServer.page([OGCTestServer.feature(id: "1")], numberMatched: 1)) }
        let box = Geometry.envelope(Envelope(xmin: 6_400_000, ymin: 1_800_000, xmax: 6_500_000, ymax: 1_900_000, spatialReference: SpatialReference(wkid: 2229)))
        let (served, refused) = try await server.withEngine { engine in
            (await server.query(engine, ServiceQuery(geometry: box, result: .ids)),
             await server.query(engine, ServiceQuery(geometry: box, result: .ids), collection: "other"))
        }
        #expect(served.success?.featureIds == [.integer(1)])
        #expect(served.success?.filteredBy == .server)
        let sent = try #require(server.itemRequests.first?.queryItems)
        #expect(sent.first { $0.name == "bbox" }?.value == "6400000,1800000,6500000,1900000")
        #expect(sent.first { $0.name == "bbox-crs" }?.value == crs)
        #expect(refused.failure?.code == .invalidQuery)
        #expect(server.itemRequests.count == 1)
    }

    @Test func antimeridianSplitting() {
        #expect(SpatialPlan.split(west: 170, south: -10, east: 190, north: 10) == [[170, -10, 180, 10], [-180, -10, -170, 10]])
        #expect(SpatialPlan.split(west: 170, south: -10, east: -170, north: 10) == [[170, -10, 180, 10], [-180, -10, -170, 10]])
        #expect(SpatialPlan.split(west: -10, south: -10, east: 10, north: 10) == [[-10, -10, 10, 10]])
        #expect(SpatialPlan.split(west: -200, south: 0, east: -170, north: 1) == [[160, 0, 180, 1], [-180, 0, -170, 1]])
    }
}
