extension Relate {
    /// Whether the two shapes share at least one point (closed sets: touching counts). Symmetric.
    static func intersects(_ a: PreparedShape, _ b: PreparedShape) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        let tolerance = Tolerance.between(a.box, b.box)
        guard a.box.intersects(b.box, tolerance: tolerance) else { return false }
        if a.dimension > b.dimension { return intersects(ordered: b, a, tolerance) }
        return intersects(ordered: a, b, tolerance)
    }

    /// `intersects` with `a` of no higher dimension than `b`.
    private static func intersects(ordered a: PreparedShape, _ b: PreparedShape, _ tolerance: Double) -> Bool {
        if a.dimension == .puntal {
            let b = b.prepared(forProbes: a.segmentCount)
            for part in a.parts {
                for p in part where locate(p, in: b, tolerance: tolerance) != .exterior { return true }
            }
            return false
        }
        // Lines or areas against lines or areas: any two segments meet (the smaller shape's segments are
        // looked up in the larger one)...
        let (scanned, larger) = a.segmentCount <= b.segmentCount ? (a, b) : (b, a)
        let probed = larger.prepared(forProbes: scanned.segmentCount)
        for part in scanned.parts {
            guard part.count >= 2 else { continue }
            for i in 0..<(part.count - 1) {
                let p = part[i]
                let q = part[i + 1]
                guard Box(p, q).intersects(probed.box, tolerance: tolerance) else { continue }
                let met = !probed.forEachSegment(near: Box(p, q), tolerance: tolerance) { c, d in
                    !Segments.intersect(p, q, c, d, tolerance: tolerance)
                }
                if met { return true }
            }
        }
        // ...or, with no boundary crossing, one lies inside the other: test a vertex of every part.
        if b.dimension == .areal {
            for part in a.parts {
                if let p = part.first, locate(p, inArea: b, tolerance: tolerance) != .exterior { return true }
            }
        }
        if a.dimension == .areal {
            for part in b.parts {
                if let p = part.first, locate(p, inArea: a, tolerance: tolerance) != .exterior { return true }
            }
        }
        return false
    }

    /// Whether `a` contains `b` (OGC): no point of `b` lies outside `a`, and the interiors share a point. So
    /// an area does not contain a point on its boundary or a line along its boundary, but does contain a
    /// polygon that shares edges with it (itself included); lines do not contain their end points.
    static func contains(_ a: PreparedShape, _ b: PreparedShape) -> Bool {
        guard !a.isEmpty, !b.isEmpty, a.dimension >= b.dimension else { return false }
        let tolerance = Tolerance.between(a.box, b.box)
        guard a.box.contains(b.box, tolerance: tolerance) else { return false }
        // a is probed once per point or segment of b (and b once per segment of a, for two areas).
        let a = a.prepared(forProbes: b.segmentCount)
        let b = a.dimension == .areal && b.dimension == .areal ? b.prepared(forProbes: a.segmentCount) : b
        switch (a.dimension, b.dimension) {
        case (_, .puntal):
            var sawInterior = false
            for part in b.parts {
                for p in part {
                    switch locate(p, in: a, tolerance: tolerance) {
                    case .exterior: return false
                    case .interior: sawInterior = true
                    case .boundary: break
                    }
                }
            }
            return sawInterior
        case (.lineal, .lineal):
            // Every piece of b must run along a's lines (forEachPiece reports that as .boundary; a zero-length
            // piece on a line's interior as .interior).
            var sawInterior = false
            let covered = forEachPiece(of: b, against: a, tolerance: tolerance) { location in
                if location != .exterior { sawInterior = true }
                return location != .exterior
            }
            return covered && sawInterior
        case (.areal, .lineal):
            return areaContainsLines(a, b, tolerance)
        case (.areal, .areal):
            return areaContainsArea(a, b, tolerance)
        default:
            return false
        }
    }

    private static func areaContainsLines(_ a: PreparedShape, _ b: PreparedShape, _ tolerance: Double) -> Bool {
        var sawInterior = false
        let inside = forEachPiece(of: b, against: a, tolerance: tolerance) { location in
            if location == .interior { sawInterior = true }
            return location != .exterior
        }
        return inside && sawInterior
    }

    private static func areaContainsArea(_ a: PreparedShape, _ b: PreparedShape, _ tolerance: Double) -> Bool {
        // b's boundary lies in a (inside or on a's boundary).
        let boundaryInside = forEachPiece(of: b, against: a, tolerance: tolerance) { $0 != .exterior }
        guard boundaryInside else { return false }
        // a's boundary does not pass through b's interior (which would put part of b outside a, or a hole of a
        // inside b).
        let noBoundaryWithin = forEachPiece(of: a, against: b, tolerance: tolerance) { $0 != .interior }
        guard noBoundaryWithin else { return false }
        // Each connected piece of b's interior is now wholly inside a or wholly outside it; one point from each
        // (one per outer ring) settles which. This rejects b filling a hole of a exactly.
        var sampled = false
        let b = b.prepared(forProbes: b.parts.count * 4)  // one scan line per ring
        for index in b.parts.indices {
            guard let sample = interiorSample(ofRing: index, in: b) else { continue }
            sampled = true
            if locate(sample, inArea: a, tolerance: tolerance) == .exterior { return false }
        }
        // An area with no interior (every ring flat) is related as its outline.
        return sampled || areaContainsLines(a, b.asLines, tolerance)
    }
}
