#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Spherical Web Mercator (EPSG:3857, Esri 102100), the projection of every web basemap, and its inverse.
///
/// The formulas are the closed-form ones on a sphere of radius 6 378 137 m, so both directions are exact up
/// to floating-point rounding (a round trip agrees to about 1e-14 degrees), with no iteration and no table.
package enum WebMercator {
    /// The sphere's radius in meters: WGS 84's semi-major axis.
    package static let radius: Double = 6_378_137
    /// Latitudes beyond this many degrees are clamped before projecting: the square world of web maps ends
    /// there, and the projection goes to infinity at the poles.
    package static let maxLatitude: Double = 85.05112878
    /// Half the width of the world in meters (π·R): x runs from -this to +this for longitudes ±180.
    package static let halfWorld: Double = Double.pi * radius

    private static let radiansPerDegree = Double.pi / 180
    private static let degreesPerRadian = 180 / Double.pi

    /// Longitude/latitude degrees to Web Mercator meters: x = R·λ, y = R·ln(tan(π/4 + φ/2)), with the latitude
    /// clamped to ±``maxLatitude``. Longitudes are not wrapped, so x stays continuous across ±180.
    @inline(__always)
    package static func project(longitude: Double, latitude: Double) -> Position {
        let clamped = min(max(latitude, -maxLatitude), maxLatitude)
        let lambda = longitude * radiansPerDegree
        let phi = clamped * radiansPerDegree
        return Position(x: radius * lambda, y: radius * log(tan(Double.pi / 4 + phi / 2)))
    }

    /// Web Mercator meters to longitude/latitude degrees: λ = x/R, φ = 2·atan(exp(y/R)) − π/2.
    @inline(__always)
    package static func unproject(x: Double, y: Double) -> Position {
        let lambda = x / radius
        let phi = 2 * atan(exp(y / radius)) - Double.pi / 2
        return Position(x: lambda * degreesPerRadian, y: phi * degreesPerRadian)
    }

    /// ``project(longitude:latitude:)`` for a vertex whose x is longitude and y latitude.
    @inline(__always)
    package static func project(_ position: Position) -> Position {
        project(longitude: position.x, latitude: position.y)
    }

    /// ``unproject(x:y:)`` for a vertex in meters.
    @inline(__always)
    package static func unproject(_ position: Position) -> Position {
        unproject(x: position.x, y: position.y)
    }
}
