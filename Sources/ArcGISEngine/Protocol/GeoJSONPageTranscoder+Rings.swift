/// Winding and hole containment for the transcoder's polygons, computed so that the fast path only ever
/// writes what the reference path (``EsriJSON`` then ``GeoJSON``) would write.
///
/// The reference decides by the sign of each ring's area and, for a hole, by whether the first vertex of the
/// hole not on the exterior's edge lies inside the exterior (within a 1e-12 relative tolerance). The fast path
/// takes only clear cases: a ring whose area is near zero (its sign could differ when the reference sums it
/// the other way round), or a hole vertex near the exterior's edge, sends the geometry to the reference.
enum RingWinding {
    /// Below this share of the summed magnitudes of its terms, an area's sign is not trusted.
    private static let areaMargin = 1e-9
    /// Hole vertices closer than this (relative to the coordinates' magnitude) to the exterior's edge are
    /// left to the reference's tolerance rules; 1000 times its tolerance.
    private static let edgeMargin = 1e-9

    /// The signed area by the reference's shoelace formula (relative to the first vertex, positive when
    /// counter-clockwise), or nil when it is too close to zero for its sign to be certain.
    static func signedArea(_ positions: [PositionText], start: Int, count: Int) -> Double? {
        let origin = positions[start]
        var sum = 0.0
        var magnitude = 0.0
        var previousX = 0.0
        var previousY = 0.0
        for index in (start + 1)..<(start + count) {
            let x = positions[index].x - origin.x
            let y = positions[index].y - origin.y
            let a = previousX * y
            let b = x * previousY
            sum += a - b
            magnitude += abs(a) + abs(b)
            previousX = x
            previousY = y
        }
        guard sum.isFinite, abs(sum) > magnitude * areaMargin else { return nil }
        return sum / 2
    }

    /// The index of the one clockwise ring when every other ring is counter-clockwise and clearly inside it
    /// (the reference then writes one Polygon: the exterior, then the holes in order); nil otherwise.
    static func exteriorHoldingHoles(_ rings: [RingInfo], _ positions: [PositionText]) -> Int? {
        var exterior: Int?
        for (index, ring) in rings.enumerated() where ring.area < 0 {
            guard exterior == nil else { return nil }
            exterior = index
        }
        guard let exterior else { return nil }
        for (index, ring) in rings.enumerated() where index != exterior {
            guard clearlyHolds(rings[exterior], ring, positions) else { return nil }
        }
        return exterior
    }

    private struct Bounds {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity

        init(_ ring: RingInfo, _ positions: [PositionText]) {
            for index in ring.start..<(ring.start + ring.count) {
                let position = positions[index]
                minX = min(minX, position.x)
                maxX = max(maxX, position.x)
                minY = min(minY, position.y)
                maxY = max(maxY, position.y)
            }
        }

        var magnitude: Double { max(max(abs(minX), abs(maxX)), max(abs(minY), abs(maxY))) }
    }

    /// Whether the hole's box lies in the exterior's box (as the reference requires, exactly) and the hole's
    /// first vertex is inside the exterior and clearly off its edge.
    private static func clearlyHolds(_ exterior: RingInfo, _ hole: RingInfo, _ positions: [PositionText]) -> Bool {
        let outer = Bounds(exterior, positions)
        let inner = Bounds(hole, positions)
        guard outer.minX <= inner.minX, inner.maxX <= outer.maxX, outer.minY <= inner.minY, inner.maxY <= outer.maxY
        else { return false }
        let margin = edgeMargin * max(1, max(outer.magnitude, inner.magnitude))
        let px = positions[hole.start].x
        let py = positions[hole.start].y
        var inside = false
        for index in exterior.start..<(exterior.start + exterior.count - 1) {
            let a = positions[index]
            let b = positions[index + 1]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let lengthSquared = dx * dx + dy * dy
            var t = lengthSquared > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / lengthSquared : 0
            guard t.isFinite else { return false }
            t = min(max(t, 0), 1)
            let ex = a.x + t * dx - px
            let ey = a.y + t * dy - py
            guard ex * ex + ey * ey > margin * margin else { return false }
            // The reference's crossing-number rule, to the right of the vertex.
            if (a.y > py) != (b.y > py) {
                let crossing = a.x + (py - a.y) * (b.x - a.x) / (b.y - a.y)
                if px < crossing { inside.toggle() }
            }
        }
        return inside
    }
}
