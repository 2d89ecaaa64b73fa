/// An axis-aligned rectangle: Esri's envelope, a GeoJSON bbox, an index entry and a map extent.
///
/// Envelopes are closed: points on the edge are inside, and two envelopes that only touch intersect.
package struct Envelope: Hashable, Sendable {
    /// West edge.
    package var xmin: Double
    /// South edge.
    package var ymin: Double
    /// East edge.
    package var xmax: Double
    /// North edge.
    package var ymax: Double
    /// The coordinate system of the edges; `nil` when the source did not say.
    package var spatialReference: SpatialReference?

    /// Puts the corners in order (swapping an inverted pair), so an envelope is never inside out.
    package init(xmin: Double, ymin: Double, xmax: Double, ymax: Double, spatialReference: SpatialReference? = nil) {
        self.xmin = min(xmin, xmax)
        self.xmax = max(xmin, xmax)
        self.ymin = min(ymin, ymax)
        self.ymax = max(ymin, ymax)
        self.spatialReference = spatialReference
    }

    /// The smallest envelope holding every position, or `nil` when there are none.
    package init?(containing positions: some Sequence<Position>, spatialReference: SpatialReference? = nil) {
        var box = Box.empty
        for position in positions { box.expand(toInclude: position) }
        guard !box.isEmpty else { return nil }
        self.init(xmin: box.minX, ymin: box.minY, xmax: box.maxX, ymax: box.maxY, spatialReference: spatialReference)
    }

    /// East–west extent, in coordinate units.
    package var width: Double { xmax - xmin }
    /// North–south extent, in coordinate units.
    package var height: Double { ymax - ymin }
    /// The middle of the rectangle.
    package var center: Position { Position(x: (xmin + xmax) / 2, y: (ymin + ymax) / 2) }

    /// Whether the two rectangles share at least one point (touching counts).
    package func intersects(_ other: Envelope) -> Bool {
        xmin <= other.xmax && other.xmin <= xmax && ymin <= other.ymax && other.ymin <= ymax
    }

    /// Whether `other` lies wholly inside this rectangle, edges included.
    package func contains(_ other: Envelope) -> Bool {
        xmin <= other.xmin && other.xmax <= xmax && ymin <= other.ymin && other.ymax <= ymax
    }

    /// Whether the position lies inside this rectangle or on its edge.
    package func contains(_ position: Position) -> Bool {
        xmin <= position.x && position.x <= xmax && ymin <= position.y && position.y <= ymax
    }

    /// The smallest envelope holding both; keeps this envelope's spatial reference.
    package func union(_ other: Envelope) -> Envelope {
        Envelope(
            xmin: min(xmin, other.xmin), ymin: min(ymin, other.ymin),
            xmax: max(xmax, other.xmax), ymax: max(ymax, other.ymax),
            spatialReference: spatialReference)
    }

    var box: Box { Box(minX: xmin, minY: ymin, maxX: xmax, maxY: ymax) }
}

/// A bare rectangle for hot loops: no spatial reference, and an explicit empty value.
struct Box: Sendable, Equatable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    static let empty = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    init(_ a: Position, _ b: Position) {
        minX = min(a.x, b.x)
        minY = min(a.y, b.y)
        maxX = max(a.x, b.x)
        maxY = max(a.y, b.y)
    }

    init(_ positions: [Position]) {
        self = .empty
        for position in positions { expand(toInclude: position) }
    }

    @inline(__always)
    mutating func expand(toInclude p: Position) {
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    mutating func expand(toInclude other: Box) {
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }

    /// Closed overlap test, widened by `tolerance` on every side.
    @inline(__always)
    func intersects(_ other: Box, tolerance: Double = 0) -> Bool {
        minX <= other.maxX + tolerance && other.minX <= maxX + tolerance
            && minY <= other.maxY + tolerance && other.minY <= maxY + tolerance
    }

    func contains(_ other: Box, tolerance: Double = 0) -> Bool {
        minX - tolerance <= other.minX && other.maxX <= maxX + tolerance
            && minY - tolerance <= other.minY && other.maxY <= maxY + tolerance
    }

    @inline(__always)
    func contains(_ p: Position, tolerance: Double = 0) -> Bool {
        minX - tolerance <= p.x && p.x <= maxX + tolerance && minY - tolerance <= p.y && p.y <= maxY + tolerance
    }

    /// The largest absolute coordinate, which sets the scale of rounding error.
    var magnitude: Double {
        isEmpty ? 0 : max(max(abs(minX), abs(maxX)), max(abs(minY), abs(maxY)))
    }

    func envelope(_ spatialReference: SpatialReference?) -> Envelope? {
        isEmpty ? nil : Envelope(xmin: minX, ymin: minY, xmax: maxX, ymax: maxY, spatialReference: spatialReference)
    }
}
