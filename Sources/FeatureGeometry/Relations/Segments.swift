/// Where a point lies relative to a geometry, in the OGC sense.
enum Location: Sendable {
    case interior
    case boundary
    case exterior
}

/// How close two coordinates must be to count as the same place.
///
/// Floating-point arithmetic cannot say exactly whether a vertex lies on a segment, so "on" means within a
/// distance of 1e-12 times the largest coordinate involved (at least 1e-12): about 13 micrometers in Web
/// Mercator and 1e-10 degrees in WGS 84. That is a thousand times the rounding error of the computations here
/// and far below the 0.1 mm resolution ArcGIS stores, so parcels that share vertices or edges touch, and
/// parcels that do not, do not.
enum Tolerance {
    static let relative = 1e-12

    static func between(_ a: Box, _ b: Box) -> Double {
        relative * max(1, max(a.magnitude, b.magnitude))
    }
}

/// Segment predicates: orientation, point-on-segment, segment intersection and the cutting of one segment
/// by another, all with the ``Tolerance`` distance.
enum Segments {
    /// Twice the signed area of the triangle o, a, b: positive when o → a → b turns counter-clockwise.
    @inline(__always)
    static func cross(_ o: Position, _ a: Position, _ b: Position) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// Where the point nearest to `p` on segment ab lies, as a fraction 0...1 of the way from a to b.
    @inline(__always)
    static func parameter(of p: Position, on a: Position, _ b: Position) -> Double {
        let dx = b.x - a.x
        let dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        guard lengthSquared > 0 else { return 0 }
        let t = ((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared
        guard t.isFinite else { return 0 }  // coordinates near the Double range overflow; never NaN out
        return min(max(t, 0), 1)
    }

    /// Whether `p` lies within `tolerance` of segment ab (a degenerate segment is its one point).
    @inline(__always)
    static func isOn(_ p: Position, _ a: Position, _ b: Position, tolerance: Double) -> Bool {
        if p.x < min(a.x, b.x) - tolerance || p.x > max(a.x, b.x) + tolerance
            || p.y < min(a.y, b.y) - tolerance || p.y > max(a.y, b.y) + tolerance
        {
            return false
        }
        let t = parameter(of: p, on: a, b)
        let dx = a.x + t * (b.x - a.x) - p.x
        let dy = a.y + t * (b.y - a.y) - p.y
        return dx * dx + dy * dy <= tolerance * tolerance
    }

    /// Whether segments ab and cd share a point: they cross, or an end of one lies on the other.
    @inline(__always)
    static func intersect(_ a: Position, _ b: Position, _ c: Position, _ d: Position, tolerance: Double) -> Bool {
        if max(a.x, b.x) + tolerance < min(c.x, d.x) || max(c.x, d.x) + tolerance < min(a.x, b.x)
            || max(a.y, b.y) + tolerance < min(c.y, d.y) || max(c.y, d.y) + tolerance < min(a.y, b.y)
        {
            return false
        }
        let d1 = cross(c, d, a)
        let d2 = cross(c, d, b)
        let d3 = cross(a, b, c)
        let d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        return isOn(a, c, d, tolerance: tolerance) || isOn(b, c, d, tolerance: tolerance)
            || isOn(c, a, b, tolerance: tolerance) || isOn(d, a, b, tolerance: tolerance)
    }

    /// Records where segment cd meets segment ab, as fractions of the way along ab: a single point goes to
    /// `cuts`; a stretch where the two run together (within tolerance) goes to `overlaps` as well.
    static func cut(
        _ a: Position, _ b: Position, by c: Position, _ d: Position, tolerance: Double,
        cuts: inout [Double], overlaps: inout [(Double, Double)]
    ) {
        if max(a.x, b.x) + tolerance < min(c.x, d.x) || max(c.x, d.x) + tolerance < min(a.x, b.x)
            || max(a.y, b.y) + tolerance < min(c.y, d.y) || max(c.y, d.y) + tolerance < min(a.y, b.y)
        {
            return
        }
        var low = Double.infinity
        var high = -Double.infinity
        func touch(_ t: Double) {
            cuts.append(t)
            low = min(low, t)
            high = max(high, t)
        }
        if isOn(c, a, b, tolerance: tolerance) { touch(parameter(of: c, on: a, b)) }
        if isOn(d, a, b, tolerance: tolerance) { touch(parameter(of: d, on: a, b)) }
        if isOn(a, c, d, tolerance: tolerance) { touch(0) }
        if isOn(b, c, d, tolerance: tolerance) { touch(1) }
        if low <= high {
            // Two distinct shared points mean the segments are collinear between them.
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            if (high - low) * length > tolerance { overlaps.append((low, high)) }
            return
        }
        let d1 = cross(c, d, a)
        let d2 = cross(c, d, b)
        let d3 = cross(a, b, c)
        let d4 = cross(a, b, d)
        guard ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) else { return }
        let denominator = (b.x - a.x) * (d.y - c.y) - (b.y - a.y) * (d.x - c.x)
        guard denominator != 0 else { return }
        let t = ((c.x - a.x) * (d.y - c.y) - (c.y - a.y) * (d.x - c.x)) / denominator
        if t.isFinite { cuts.append(min(max(t, 0), 1)) }
    }
}
