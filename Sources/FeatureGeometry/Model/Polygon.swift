/// An area bounded by rings: one or more outer rings, each with any number of holes. Esri's polygon,
/// GeoJSON's Polygon and MultiPolygon.
///
/// ``rings`` follow the Esri convention, whatever format the polygon came from: every ring is closed (its
/// last vertex repeats its first), outer rings run clockwise and holes counter-clockwise (with y pointing up).
/// The GeoJSON decoder turns RFC 7946's counter-clockwise outer rings around; the GeoJSON encoder turns them
/// back. Relations use the even-odd rule, so they do not depend on orientation; only the GeoJSON encoder's
/// grouping of holes into polygons does.
package struct Polygon: Hashable, Sendable {
    /// The rings in the Esri convention (see above), outer rings and holes in one list.
    package var rings: [[Position]]
    /// The coordinate system of the rings; `nil` when the source did not say.
    package var spatialReference: SpatialReference?

    /// Takes rings already in the Esri convention; closes any ring whose last vertex is not its first.
    package init(rings: [[Position]], spatialReference: SpatialReference? = nil) {
        self.rings = rings.map(RingMath.closed)
        self.spatialReference = spatialReference
    }

    /// Builds a polygon with one outer ring and its holes in either winding: the outer ring is made clockwise
    /// and the holes counter-clockwise, so callers need not know the Esri convention.
    package init(exterior: [Position], holes: [[Position]] = [], spatialReference: SpatialReference? = nil) {
        var rings = [RingMath.oriented(RingMath.closed(exterior), clockwise: true)]
        for hole in holes { rings.append(RingMath.oriented(RingMath.closed(hole), clockwise: false)) }
        self.rings = rings
        self.spatialReference = spatialReference
    }

    /// The rectangle as a one-ring polygon (clockwise), for relating it like any other area.
    package init(_ envelope: Envelope) {
        let ring = [
            Position(envelope.xmin, envelope.ymin), Position(envelope.xmin, envelope.ymax),
            Position(envelope.xmax, envelope.ymax), Position(envelope.xmax, envelope.ymin),
            Position(envelope.xmin, envelope.ymin),
        ]
        self.rings = [ring]
        self.spatialReference = envelope.spatialReference
    }

    /// The signed area by the shoelace formula over all rings: negative for a polygon in the Esri convention
    /// (clockwise outer rings outweigh counter-clockwise holes). Its magnitude is the area of the even-odd
    /// region for a valid polygon.
    package var signedArea: Double {
        rings.reduce(0) { $0 + RingMath.signedArea($1) }
    }
}
