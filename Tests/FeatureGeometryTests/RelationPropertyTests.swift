import FeatureGeometry
import PropertyBased
import Testing

@Suite("Relation properties")
struct RelationPropertyTests {
    @Test func intersectsIsSymmetricAndImpliedByContains() async {
        await propertyCheck(count: 1000, input: Generators.gridGeometry, Generators.gridGeometry) { a, b in
            let intersects = a.intersects(b)
            #expect(intersects == b.intersects(a))
            #expect(a.within(b) == b.contains(a))
            if a.contains(b) {
                #expect(intersects, "contains without intersects")
                if let outer = a.extent, let inner = b.extent { #expect(outer.contains(inner)) }
            }
            if intersects { #expect(a.envelopeIntersects(b)) }
            if a.contains(b) && b.contains(a) { #expect(a.type == b.type || a.extent == b.extent) }
        }
    }

    @Test func theSamePropertiesHoldForGeneralGeometry() async {
        await propertyCheck(count: 300, input: Generators.geometry, Generators.geometry) { a, b in
            #expect(a.intersects(b) == b.intersects(a))
            if a.contains(b) { #expect(a.intersects(b)) }
        }
    }

    @Test func everyPolygonContainsAndIntersectsItself() async {
        await propertyCheck(count: 200, input: Generators.polygon) { polygon in
            let geometry = Geometry.polygon(polygon)
            #expect(geometry.contains(geometry))
            #expect(geometry.intersects(geometry))
        }
    }

    /// Point-in-polygon against an independent winding-number count, for points off the boundary.
    @Test func pointLocationAgreesWithAWindingNumber() async {
        let samples = Generator<(Polygon, [Position]), Shrink.None<(Polygon, [Position])>>(run: { rng in
            let polygon = RandomGeometry.polygon(&rng)
            let box = Geometry.polygon(polygon).extent ?? Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)
            let points = (0..<50).map { _ in
                Position(Double.random(in: box.xmin...box.xmax, using: &rng), Double.random(in: box.ymin...box.ymax, using: &rng))
            }
            return (polygon, points)
        })
        await propertyCheck(count: 100, input: samples) { sample in
            let (polygon, points) = sample
            for p in points {
                let inside = polygon.rings.reduce(0) { $0 + windingNumber(p, $1) } != 0
                #expect(Geometry.polygon(polygon).contains(.point(Point(p))) == inside, "\(p)")
                #expect(Geometry.polygon(polygon).intersects(.point(Point(p))) == inside)
            }
        }
    }

    @Test func envelopesRelateAsTheirPolygons() async {
        await propertyCheck(count: 500, input: Generators.gridGeometry, Generators.gridGeometry) { a, b in
            guard case .envelope(let envelope) = a, envelope.width > 0, envelope.height > 0 else { return }
            let asPolygon = Geometry.polygon(Polygon(envelope))
            #expect(a.intersects(b) == asPolygon.intersects(b))
            #expect(a.contains(b) == asPolygon.contains(b))
            #expect(a.within(b) == asPolygon.within(b))
        }
    }

    /// Winding number of `ring` around `p`: nonzero inside (clockwise rings count negative).
    private func windingNumber(_ p: Position, _ ring: [Position]) -> Int {
        var winding = 0
        for i in 0..<(ring.count - 1) {
            let a = ring[i]
            let b = ring[i + 1]
            let side = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y)
            if a.y <= p.y {
                if b.y > p.y && side > 0 { winding += 1 }
            } else if b.y <= p.y && side < 0 {
                winding -= 1
            }
        }
        return winding
    }
}
