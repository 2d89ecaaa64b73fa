/// A single location: Esri's point, GeoJSON's Point.
package struct Point: Hashable, Sendable {
    /// The x coordinate: longitude in degrees for 4326, meters east for Web Mercator.
    package var x: Double
    /// The y coordinate: latitude in degrees for 4326, meters north for Web Mercator.
    package var y: Double
    /// The coordinate system of `x` and `y`; `nil` when the source did not say.
    package var spatialReference: SpatialReference?

    /// A point at x, y in `spatialReference` (`nil` when unknown: relations then compare coordinates as they are).
    package init(x: Double, y: Double, spatialReference: SpatialReference? = nil) {
        self.x = x
        self.y = y
        self.spatialReference = spatialReference
    }

    /// A point at a vertex.
    package init(_ position: Position, spatialReference: SpatialReference? = nil) {
        self.init(x: position.x, y: position.y, spatialReference: spatialReference)
    }

    /// The point's coordinates as a vertex.
    package var position: Position { Position(x: x, y: y) }
}
