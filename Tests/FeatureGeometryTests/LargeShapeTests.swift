import FeatureGeometry
import PropertyBased
import Testing

/// Shapes large enough to be related through their segment index.
@Suite("Relations between large shapes")
struct LargeShapeTests {
    /// A regular polygon of `count` vertices (clockwise).
    static func circle(_ cx: Double, _ cy: Double, _ radius: Double, count: Int, clockwise: Bool = true) -> [Position] {
        var ring = (0..<count).map { k -> Position in
            let angle = (clockwise ? -2.0 : 2.0) * Double.pi * Double(k) / Double(count)
            return Position(cx + radius * cosine(angle), cy + radius * sine(angle))
        }
        ring.append(ring[0])
        return ring
    }

    @Test func bigStarPolygonsLocatePointsLikeAWindingNumber() async {
        let samples = Generator<([Position], [Position]), Shrink.None<([Position], [Position])>>(run: { rng in
            let count = Int.random(in: 150...600, using: &rng)
            var ring = (0..<count).map { k -> Position in
                let angle = -2 * Double.pi * Double(k) / Double(count)
                let r = Double.random(in: 50...100, using: &rng)
                return Position(r * cosine(angle), r * sine(angle))
            }
            ring.append(ring[0])
            let points = (0..<200).map { _ in
                Position(Double.random(in: -100...100, using: &rng), Double.random(in: -100...100, using: &rng))
            }
            return (ring, points)
        })
        await propertyCheck(count: 20, input: samples) { sample in
            let (ring, points) = sample
            let polygon = Geometry.polygon(Polygon(rings: [ring]))
            for p in points {
                #expect(polygon.contains(.point(Point(p))) == isInside(p, ring), "\(p)")
            }
            let cloud = Geometry.multipoint(Multipoint(points: points))
            #expect(cloud.intersects(polygon) == points.contains { isInside($0, ring) })
        }
    }

    @Test func bigPolygonsRelateQuickly() {
        let outer = Geometry.polygon(Polygon(rings: [Self.circle(0, 0, 100, count: 8_000)]))
        let inner = Geometry.polygon(Polygon(rings: [Self.circle(0, 0, 90, count: 8_000)]))
        let crossing = Geometry.polygon(Polygon(rings: [Self.circle(100, 0, 20, count: 2_000)]))
        let donut = Geometry.polygon(Polygon(rings: [Self.circle(0, 0, 100, count: 8_000),
                                                     Self.circle(0, 0, 50, count: 8_000, clockwise: false)]))
        let plug = Geometry.polygon(Polygon(rings: [Self.circle(0, 0, 50, count: 8_000)]))
        #expect(outer.contains(inner) && inner.within(outer) && !inner.contains(outer))
        #expect(outer.intersects(crossing) && !outer.contains(crossing))
        #expect(donut.intersects(plug) && !donut.contains(plug) && outer.contains(plug))
        #expect(!donut.contains(inner) && donut.intersects(inner))
        let ring = Geometry.polyline(Polyline(paths: [Self.circle(0, 0, 95, count: 8_000)]))
        #expect(outer.contains(ring) && !inner.intersects(ring) && donut.contains(ring))
    }

    @Test func bigMultipointsAndLines() {
        let points = (0..<1_000).map { Position(Double($0), Double($0 % 7)) }
        let cloud = Geometry.multipoint(Multipoint(points: points))
        let some = Geometry.multipoint(Multipoint(points: Array(points[100..<200])))
        let zigzag = Geometry.polyline(Polyline(paths: [points]))
        // Booleans first, so a failure does not print a thousand vertices.
        let cloudHoldsSome = cloud.contains(some), someHoldsCloud = some.contains(cloud), meet = cloud.intersects(some)
        #expect(cloudHoldsSome && !someHoldsCloud && meet)
        let offVertex = cloud.contains(.point(Point(x: 0.5, y: 0)))
        #expect(!offVertex)
        let lineHoldsVertices = zigzag.contains(some), lineMeetsCloud = zigzag.intersects(cloud)
        #expect(lineHoldsVertices && lineMeetsCloud)
        let lineHoldsPart = zigzag.contains(.polyline(Polyline(paths: [Array(points[10..<20])])))
        let lineHoldsCollinearChord = zigzag.contains(.polyline(Polyline(paths: [[points[10], points[12]]])))
        let lineHoldsShortcut = zigzag.contains(.polyline(Polyline(paths: [[points[12], points[14]]])))
        #expect(lineHoldsPart && lineHoldsCollinearChord && !lineHoldsShortcut)
    }

    /// Even-odd point-in-ring by crossing count, written independently of the library.
    private func isInside(_ p: Position, _ ring: [Position]) -> Bool {
        var inside = false
        var j = ring.count - 2
        for i in 0..<(ring.count - 1) {
            let a = ring[i]
            let b = ring[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }
}
