/// The spatial predicates on prepared shapes. Geometry, SpatialRelation and SpatialFilter are the public
/// faces; see ``SpatialRelation`` for the semantics.
enum Relate {
    /// Where `p` lies relative to an area, by the crossing-number (even-odd) rule with a boundary test first:
    /// holes need no special casing and ring winding does not matter. Only edges that reach the horizontal
    /// ray from `p` to the right are looked at.
    static func locate(_ p: Position, inArea shape: PreparedShape, tolerance: Double) -> Location {
        guard shape.box.contains(p, tolerance: tolerance) else { return .exterior }
        var inside = false
        let ray = Box(minX: p.x, minY: p.y, maxX: max(shape.box.maxX, p.x), maxY: p.y)
        let onBoundary = !shape.forEachSegment(near: ray, tolerance: tolerance) { a, b in
            if Segments.isOn(p, a, b, tolerance: tolerance) { return false }
            if (a.y > p.y) != (b.y > p.y) {
                let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
                if p.x < x { inside.toggle() }
            }
            return true
        }
        if onBoundary { return .boundary }
        return inside ? .interior : .exterior
    }

    /// Where `p` lies relative to lines: on a path's end point that is on the OGC boundary, elsewhere on a
    /// path, or off every path.
    static func locate(_ p: Position, onLines shape: PreparedShape, tolerance: Double) -> Location {
        guard shape.box.contains(p, tolerance: tolerance) else { return .exterior }
        let pointBox = Box(p, p)
        let isOn = !shape.forEachSegment(near: pointBox, tolerance: tolerance) { a, b in
            !Segments.isOn(p, a, b, tolerance: tolerance)
        }
        guard isOn else { return .exterior }
        for end in shape.lineBoundary where Segments.isOn(p, end, end, tolerance: tolerance) {
            return .boundary
        }
        return .interior
    }

    /// Where `p` lies relative to a set of points: on one of them (a point's interior is itself) or not.
    static func locate(_ p: Position, amongPoints shape: PreparedShape, tolerance: Double) -> Location {
        guard shape.box.contains(p, tolerance: tolerance) else { return .exterior }
        let found = !shape.forEachVertex(near: Box(p, p), tolerance: tolerance) { q in
            !(abs(q.x - p.x) <= tolerance && abs(q.y - p.y) <= tolerance)
        }
        return found ? .interior : .exterior
    }

    /// Where `p` lies relative to any shape.
    static func locate(_ p: Position, in shape: PreparedShape, tolerance: Double) -> Location {
        switch shape.dimension {
        case .puntal: locate(p, amongPoints: shape, tolerance: tolerance)
        case .lineal: locate(p, onLines: shape, tolerance: tolerance)
        case .areal: locate(p, inArea: shape, tolerance: tolerance)
        }
    }

    /// Cuts every segment of `shape` where it meets `other`'s segments and passes each piece's location
    /// relative to `other` to `visit`: `.boundary` for a piece that runs along one of `other`'s segments (for
    /// an area, its boundary; for lines, the lines themselves), else the location of the piece's midpoint.
    /// Since no piece crosses `other`'s segments, its midpoint speaks for all of it. Stops when `visit`
    /// returns false, and then returns false.
    static func forEachPiece(
        of shape: PreparedShape, against other: PreparedShape, tolerance: Double, _ visit: (Location) -> Bool
    ) -> Bool {
        var cuts: [Double] = []
        var overlaps: [(Double, Double)] = []
        for part in shape.parts {
            guard part.count >= 2 else { continue }
            for i in 0..<(part.count - 1) {
                let a = part[i]
                let b = part[i + 1]
                cuts.removeAll(keepingCapacity: true)
                overlaps.removeAll(keepingCapacity: true)
                cuts.append(0)
                cuts.append(1)
                _ = other.forEachSegment(near: Box(a, b), tolerance: tolerance) { c, d in
                    Segments.cut(a, b, by: c, d, tolerance: tolerance, cuts: &cuts, overlaps: &overlaps)
                    return true
                }
                cuts.sort()
                var start = cuts[0]
                for t in cuts.dropFirst() where t > start {
                    let middle = (start + t) / 2
                    let location: Location
                    if overlaps.contains(where: { $0.0 <= middle && middle <= $0.1 }) {
                        location = .boundary
                    } else {
                        let p = Position(a.x + middle * (b.x - a.x), a.y + middle * (b.y - a.y))
                        location = other.dimension == .areal
                            ? locate(p, inArea: other, tolerance: tolerance)
                            : (locate(p, onLines: other, tolerance: tolerance) == .exterior ? .exterior : .boundary)
                    }
                    if !visit(location) { return false }
                    start = t
                }
            }
        }
        return true
    }

    /// A point strictly inside the area just within ring `index`, when that ring is an outer boundary of the
    /// even-odd region (for a hole, `nil`): found on a horizontal line through the ring's widest vertical gap,
    /// halfway between the ring's leftmost crossing and the next crossing of any ring.
    static func interiorSample(ofRing index: Int, in shape: PreparedShape) -> Position? {
        let ring = shape.parts[index]
        let ys = ring.map(\.y).sorted()
        var gap = 0.0
        var y = 0.0
        for i in ys.indices.dropFirst() where ys[i] - ys[i - 1] > gap {
            gap = ys[i] - ys[i - 1]
            y = ys[i - 1] + gap / 2
        }
        guard gap > 0 else { return nil }
        var crossings: [(x: Double, ring: Int)] = []
        let line = Box(minX: shape.box.minX, minY: y, maxX: shape.box.maxX, maxY: y)
        if let segmentIndex = shape.segmentIndex {
            _ = segmentIndex.visit(near: line, tolerance: 0) { k, i in
                let a = shape.parts[k][i]
                let b = shape.parts[k][i + 1]
                if (a.y > y) != (b.y > y) { crossings.append((a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y), k)) }
                return true
            }
        } else {
            for (k, part) in shape.parts.enumerated() where shape.partBoxes[k].intersects(line) && part.count >= 2 {
                for i in 0..<(part.count - 1) {
                    let a = part[i]
                    let b = part[i + 1]
                    if (a.y > y) != (b.y > y) { crossings.append((a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y), k)) }
                }
            }
        }
        crossings.sort { $0.x < $1.x }
        guard let first = crossings.firstIndex(where: { $0.ring == index }), first % 2 == 0,
            first + 1 < crossings.count
        else { return nil }
        return Position((crossings[first].x + crossings[first + 1].x) / 2, y)
    }
}
