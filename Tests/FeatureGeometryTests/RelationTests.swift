import FeatureGeometry
import Testing

/// The boundary semantics of the relations (see SpatialRelation), table by table.
@Suite("Relations: intersects, contains, within, envelope-intersects")
struct RelationTests {
    static let donut = polygon(square(0, 0, 10), square(4, 4, 2, clockwise: false))
    static let solid = polygon(square(0, 0, 10))
    static let plug = polygon(square(4, 4, 2))
    static let inner = polygon(square(1, 1, 2))
    static let corner = polygon(square(0, 0, 2))
    static let neighbour = polygon(square(10, 0, 2))
    static let overlapping = polygon(square(8, 8, 4))
    static let bigger = polygon(square(-1, -1, 12))
    static let far = polygon(square(20, 20, 1))

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var a: Geometry
        var b: Geometry
        var intersects: Bool
        var contains: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        // Points against an area with a hole.
        Case(name: "point in the solid part", a: donut, b: point(1, 1), intersects: true, contains: true),
        Case(name: "point on the outer boundary", a: donut, b: point(0, 5), intersects: true, contains: false),
        Case(name: "point on the hole's boundary", a: donut, b: point(4, 5), intersects: true, contains: false),
        Case(name: "point at a vertex", a: donut, b: point(10, 10), intersects: true, contains: false),
        Case(name: "point in the hole", a: donut, b: point(5, 5), intersects: false, contains: false),
        Case(name: "point outside", a: donut, b: point(11, 5), intersects: false, contains: false),
        // Lines against an area.
        Case(name: "line inside", a: donut, b: line((1, 1), (3, 1)), intersects: true, contains: true),
        Case(name: "line along the boundary", a: donut, b: line((0, 0), (10, 0)), intersects: true, contains: false),
        Case(name: "line from a corner inward", a: donut, b: line((0, 0), (1, 1)), intersects: true, contains: true),
        Case(name: "line across the hole", a: donut, b: line((1, 5), (9, 5)), intersects: true, contains: false),
        Case(name: "line leaving the area", a: donut, b: line((-1, 5), (1, 5)), intersects: true, contains: false),
        Case(name: "line within the hole", a: donut, b: line((4.5, 4.5), (5.5, 5.5)), intersects: false, contains: false),
        Case(name: "line through reflex corners", a: polygon(ring([(0, 0), (0, 4), (2, 2), (4, 4), (4, 0)])),
             b: line((0, 4), (4, 4)), intersects: true, contains: false),
        // Areas against areas.
        Case(name: "area inside", a: donut, b: inner, intersects: true, contains: true),
        Case(name: "area sharing two edges", a: donut, b: corner, intersects: true, contains: true),
        Case(name: "itself", a: donut, b: donut, intersects: true, contains: true),
        Case(name: "area filling the hole", a: donut, b: plug, intersects: true, contains: false),
        Case(name: "solid square holds the hole's plug", a: solid, b: plug, intersects: true, contains: true),
        Case(name: "solid square holds the donut", a: solid, b: donut, intersects: true, contains: true),
        Case(name: "donut does not hold the solid square", a: donut, b: solid, intersects: true, contains: false),
        Case(name: "area touching along an edge", a: donut, b: neighbour, intersects: true, contains: false),
        Case(name: "overlapping areas", a: donut, b: overlapping, intersects: true, contains: false),
        Case(name: "enclosing area", a: bigger, b: donut, intersects: true, contains: true),
        Case(name: "disjoint areas", a: donut, b: far, intersects: false, contains: false),
        Case(name: "area around the whole donut but inside the hole", a: polygon(square(4.5, 4.5, 1)), b: donut,
             intersects: false, contains: false),
        // Envelopes are areas, or lines and points when flat.
        Case(name: "envelope holds the plug", a: .envelope(Envelope(xmin: 0, ymin: 0, xmax: 10, ymax: 10)), b: plug,
             intersects: true, contains: true),
        Case(name: "point-sized envelope in the hole", a: donut, b: .envelope(Envelope(xmin: 5, ymin: 5, xmax: 5, ymax: 5)),
             intersects: false, contains: false),
        Case(name: "flat envelope inside", a: donut, b: .envelope(Envelope(xmin: 1, ymin: 1, xmax: 1, ymax: 3)),
             intersects: true, contains: true),
        // Multipoints: OGC needs one point in the interior, the rest may be on the boundary.
        Case(name: "multipoint inside and on the boundary", a: donut,
             b: .multipoint(Multipoint(points: [position(1, 1), position(0, 5)])), intersects: true, contains: true),
        Case(name: "multipoint on the boundary only", a: donut,
             b: .multipoint(Multipoint(points: [position(0, 5), position(10, 5)])), intersects: true, contains: false),
        Case(name: "multipoint partly in the hole", a: donut,
             b: .multipoint(Multipoint(points: [position(1, 1), position(5, 5)])), intersects: true, contains: false),
        // Lines against points and lines: a line's end points are its boundary.
        Case(name: "line holds a point on a segment", a: line((0, 0), (2, 0), (2, 2)), b: point(1, 0),
             intersects: true, contains: true),
        Case(name: "line holds an interior vertex", a: line((0, 0), (2, 0), (2, 2)), b: point(2, 0),
             intersects: true, contains: true),
        Case(name: "line does not hold its end point", a: line((0, 0), (2, 0), (2, 2)), b: point(0, 0),
             intersects: true, contains: false),
        Case(name: "closed line has no boundary", a: line((0, 0), (1, 0), (1, 1), (0, 0)), b: point(0, 0),
             intersects: true, contains: true),
        Case(name: "line holds a part of itself", a: line((0, 0), (2, 0), (4, 0)), b: line((1, 0), (3, 0)),
             intersects: true, contains: true),
        Case(name: "collinear overlap only", a: line((0, 0), (4, 0)), b: line((3, 0), (5, 0)), intersects: true, contains: false),
        Case(name: "crossing lines", a: line((0, 0), (2, 2)), b: line((0, 2), (2, 0)), intersects: true, contains: false),
        Case(name: "T junction", a: line((0, 0), (2, 0)), b: line((1, 0), (1, 1)), intersects: true, contains: false),
        Case(name: "collinear but apart", a: line((0, 0), (1, 0)), b: line((2, 0), (3, 0)), intersects: false, contains: false),
        // Points against points.
        Case(name: "same point", a: point(1, 1), b: point(1, 1), intersects: true, contains: true),
        Case(name: "multipoint holds one of its points",
             a: .multipoint(Multipoint(points: [position(1, 1), position(2, 2)])), b: point(2, 2),
             intersects: true, contains: true),
        Case(name: "point does not hold a multipoint", a: point(2, 2),
             b: .multipoint(Multipoint(points: [position(1, 1), position(2, 2)])), intersects: true, contains: false),
    ]

    @Test(arguments: cases)
    func relates(_ c: Case) {
        #expect(c.a.intersects(c.b) == c.intersects, "intersects")
        #expect(c.b.intersects(c.a) == c.intersects, "intersects is symmetric")
        #expect(c.a.contains(c.b) == c.contains, "contains")
        #expect(c.b.within(c.a) == c.contains, "within is contains reversed")
        #expect(c.a.relates(to: c.b, by: .contains) == c.contains)
        #expect(c.a.relates(to: c.b, by: .intersects) == c.intersects)
        if c.intersects { #expect(c.a.envelopeIntersects(c.b)) }
    }

    /// Parcels in Web Mercator that share vertices, an edge, and a vertex placed on a neighbour's edge by
    /// arithmetic (so not exactly on it in floating point): the tolerance makes all of them touch.
    @Test func webMercatorParcelsThatShareBoundariesTouch() {
        let origin = WebMercator.project(longitude: -118.805, latitude: 34.03)
        func p(_ dx: Double, _ dy: Double) -> Position { Position(origin.x + dx * 1.2068, origin.y + dy * 1.2068) }
        let a = Geometry.polygon(Polygon(exterior: [p(0, 0), p(0.3, 31.7), p(25.1, 32.2), p(24.9, 0.4)]))
        let b = Geometry.polygon(Polygon(exterior: [p(24.9, 0.4), p(25.1, 32.2), p(51.3, 31.9), p(50.2, 0.1)]))
        #expect(a.intersects(b) && b.intersects(a))
        #expect(!a.contains(b) && !b.contains(a))
        // A vertex a third of the way along b's shared edge.
        let onEdge = Position(p(24.9, 0.4).x + (p(25.1, 32.2).x - p(24.9, 0.4).x) / 3,
                              p(24.9, 0.4).y + (p(25.1, 32.2).y - p(24.9, 0.4).y) / 3)
        let c = Geometry.polygon(Polygon(exterior: [onEdge, p(12, 20), p(10, 5)]))
        #expect(c.intersects(b) && a.contains(c) && !b.contains(c))
        #expect(a.contains(.point(Point(p(10, 10)))) && !a.contains(.point(Point(onEdge))))
        let apart = Geometry.polygon(Polygon(exterior: [p(25.2, 0.4), p(25.4, 32.2), p(51.3, 31.9), p(50.2, 0.1)]))
        #expect(!a.intersects(apart))
    }

    @Test func extremeCoordinatesNeitherCrashNorHang() {
        let huge = Geometry.polygon(Polygon(rings: [square(-1.7e308, -1.7e308, 1.7e308)]))
        let odd = line((-1.7e308, 0), (1.7e308, 1e-300), (0, 1.7e308))
        let withNaN = Geometry.polyline(Polyline(paths: [[position(.nan, 0), position(1, 1)]]))
        for a in [huge, odd, withNaN, Self.donut] {
            for b in [huge, odd, withNaN, Self.donut] {
                _ = a.intersects(b)
                _ = a.contains(b)
            }
        }
    }

    @Test func emptyGeometriesRelateToNothing() {
        let empty = Geometry.polygon(Polygon(rings: []))
        #expect(!empty.intersects(Self.donut) && !Self.donut.intersects(empty))
        #expect(!empty.contains(Self.donut) && !Self.donut.contains(empty) && !empty.envelopeIntersects(Self.donut))
    }

    @Test func relationNamesFollowArcGIS() throws {
        #expect(try SpatialRelation(esriName: "esriSpatialRelIntersects") == .intersects)
        #expect(try SpatialRelation(esriName: "esriSpatialRelWithin") == .within)
        #expect(try SpatialRelation(esriName: "esriSpatialRelIndexIntersects") == .envelopeIntersects)
        #expect(SpatialRelation.contains.esriName == "esriSpatialRelContains")
        for name in ["esriSpatialRelCrosses", "esriSpatialRelTouches", "esriSpatialRelOverlaps", "esriSpatialRelRelation", ""] {
            expectGeometryError(.unsupportedRelation) { _ = try SpatialRelation(esriName: name) }
        }
    }

    @Test func envelopeIntersectsComparesBoxesOnly() {
        let diagonal = line((0, 0), (10, 10))
        let offDiagonal = polygon(square(8, 0, 1))
        #expect(diagonal.envelopeIntersects(offDiagonal) && !diagonal.intersects(offDiagonal))
        #expect(diagonal.relates(to: offDiagonal, by: .envelopeIntersects))
    }

    @Test func filtersProjectFeaturesBetweenWGS84AndWebMercator() throws {
        let query = Geometry.envelope(Envelope(xmin: -118.81, ymin: 34.02, xmax: -118.80, ymax: 34.04, spatialReference: .wgs84))
        let filter = SpatialFilter(geometry: query, relation: .contains)
        let inside = Geometry.point(Point(WebMercator.project(longitude: -118.805, latitude: 34.03), spatialReference: .webMercator))
        let outside = Geometry.point(Point(WebMercator.project(longitude: -118.7, latitude: 34.03), spatialReference: .webMercator))
        #expect(try filter.matches(inside))
        #expect(try !filter.matches(outside))
        expectGeometryError(.unsupportedSpatialReference) {
            _ = try filter.matches(.point(Point(x: 1, y: 2, spatialReference: SpatialReference(wkid: 2229))))
        }
        let projected = try filter.projected(to: .webMercator)
        #expect(projected.geometry.spatialReference == .webMercator && projected.relation == .contains)
        #expect(try projected.matches(inside))
        #expect(SpatialFilter(geometry: .polygon(Polygon(rings: []))).searchEnvelope == nil)
    }
}
