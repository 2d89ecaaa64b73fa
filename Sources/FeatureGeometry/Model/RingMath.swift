/// Ring arithmetic shared by the model, the decoders and the encoders: closing, winding and grouping holes.
enum RingMath {
    /// The ring with its first vertex repeated at the end, if it was not already.
    static func closed(_ ring: [Position]) -> [Position] {
        guard let first = ring.first, let last = ring.last, first != last else { return ring }
        var copy = ring
        copy.append(first)
        return copy
    }

    /// The signed area by the shoelace formula, positive when the ring runs counter-clockwise
    /// (y up). Coordinates are taken relative to the first vertex so that Web Mercator's large values do not
    /// cancel away the precision.
    static func signedArea(_ ring: [Position]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let origin = ring[0]
        var sum = 0.0
        var previous = Position(0, 0)
        for index in 1..<ring.count {
            let current = Position(ring[index].x - origin.x, ring[index].y - origin.y)
            sum += previous.x * current.y - current.x * previous.y
            previous = current
        }
        return sum / 2
    }

    /// The ring turned to run clockwise (outer ring in Esri's convention) or counter-clockwise. A ring with no
    /// area is left as it is.
    static func oriented(_ ring: [Position], clockwise: Bool) -> [Position] {
        let area = signedArea(ring)
        if clockwise ? area > 0 : area < 0 { return ring.reversed() }
        return ring
    }

    /// Esri polygons say which rings are holes by winding alone. A sender that used the opposite (OGC)
    /// convention for every ring leaves no clockwise ring at all; then every ring is turned around, so a
    /// polygon of counter-clockwise outer rings is read as the sender meant. Otherwise the rings stay as sent.
    static func normalizedEsriRings(_ rings: [[Position]]) -> [[Position]] {
        var sawClockwise = false
        var sawCounterClockwise = false
        for ring in rings {
            let area = signedArea(ring)
            if area < 0 { sawClockwise = true } else if area > 0 { sawCounterClockwise = true }
        }
        guard sawCounterClockwise, !sawClockwise else { return rings }
        return rings.map { $0.reversed() }
    }

    /// Groups rings in the Esri convention into polygons for GeoJSON: each group is an outer ring's index
    /// followed by the indices of its holes. A hole goes to the smallest outer ring that holds it; a hole no
    /// outer ring holds becomes an outer ring of its own, so nothing is lost.
    static func groupedForGeoJSON(_ rings: [[Position]]) -> [[Int]] {
        var outers: [Int] = []
        var holes: [Int] = []
        var areas: [Double] = []
        for (index, ring) in rings.enumerated() {
            let area = signedArea(ring)
            areas.append(area)
            if area > 0 { holes.append(index) } else { outers.append(index) }
        }
        var groups = outers.map { [$0] }
        let outerBoxes = outers.map { Box(rings[$0]) }
        for hole in holes {
            let holeBox = Box(rings[hole])
            var best: Int?
            for (slot, outer) in outers.enumerated() where outerBoxes[slot].contains(holeBox) {
                guard ringHolds(rings[outer], rings[hole]) else { continue }
                if let current = best, abs(areas[outers[current]]) <= abs(areas[outer]) { continue }
                best = slot
            }
            if let best {
                groups[best].append(hole)
            } else {
                groups.append([hole])
            }
        }
        return groups
    }

    /// Whether `inner` lies inside `outer`, judged by the first vertex of `inner` that is not on `outer`'s edge.
    private static func ringHolds(_ outer: [Position], _ inner: [Position]) -> Bool {
        let shape = PreparedShape(areaRings: [outer])
        let tolerance = Tolerance.between(shape.box, Box(inner))
        for vertex in inner {
            switch Relate.locate(vertex, inArea: shape, tolerance: tolerance) {
            case .interior: return true
            case .exterior: return false
            case .boundary: continue
            }
        }
        return true
    }
}
