/// One or more paths of connected line segments: Esri's polyline, GeoJSON's LineString and MultiLineString.
public struct Polyline: Hashable, Sendable {
    /// Each path is a sequence of vertices joined by straight segments.
    public var paths: [[Position]]
    /// The coordinate system of the paths; `nil` when the source did not say.
    public var spatialReference: SpatialReference?

    /// A polyline of `paths`, taken as they are (the decoders require at least two vertices per path).
    public init(paths: [[Position]], spatialReference: SpatialReference? = nil) {
        self.paths = paths
        self.spatialReference = spatialReference
    }
}
