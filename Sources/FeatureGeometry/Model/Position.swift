/// One vertex: x and y in the units of the geometry's spatial reference (longitude and latitude in degrees
/// for 4326, meters for Web Mercator).
///
/// FeatureGeometry is two-dimensional: Z and M values are accepted when decoding (Esri `z`/`m` members and
/// `hasZ`/`hasM`, and third or fourth numbers in a coordinate array) and dropped, and encoding writes x and y
/// only. Spatial queries and selections need only x and y, and a 16-byte vertex keeps parcels compact.
package struct Position: Hashable, Sendable, CustomStringConvertible {
    /// Longitude or easting.
    package var x: Double
    /// Latitude or northing.
    package var y: Double

    /// A vertex at x, y.
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// A vertex at x, y, for compact literals in tables.
    package init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are finite; JSON cannot carry anything else.
    package var isFinite: Bool { x.isFinite && y.isFinite }

    package var description: String { "(\(x), \(y))" }
}
