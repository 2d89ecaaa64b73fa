/// A set of locations: Esri's multipoint, GeoJSON's MultiPoint.
package struct Multipoint: Hashable, Sendable {
    /// The locations, in the order the source gave them; duplicates are kept.
    package var points: [Position]
    /// The coordinate system of the points; `nil` when the source did not say.
    package var spatialReference: SpatialReference?

    /// A multipoint of `points` (which may be empty: an empty multipoint matches nothing).
    package init(points: [Position], spatialReference: SpatialReference? = nil) {
        self.points = points
        self.spatialReference = spatialReference
    }
}
