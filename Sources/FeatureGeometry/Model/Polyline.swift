/// One or more paths of connected line segments: Esri's polyline, GeoJSON's LineString and MultiLineString.
package struct Polyline: Hashable, Sendable {
    /// Each path is a sequence of vertices joined by straight segments.
    package var paths: [[Position]]
    /// The coordinate system of the paths; `nil` when the source did not say.
    package var spatialReference: SpatialReference?

    /// A polyline of `paths`, taken as they are (the decoders require at least two vertices per path).
    package init(paths: [[Position]], spatialReference: SpatialReference? = nil) {
        self.paths = paths
        self.spatialReference = spatialReference
    }
}
