import FeatureGeometry

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where parcels are dense: a mixture of Gaussian clusters over Los Angeles County (the seed app's
/// viewpoint in Malibu, downtown, the Valley, Long Beach, ...) on a thin uniform base, in Web Mercator
/// meters. The generator asks it how much of the county's parcels a rectangle should hold; Gaussian masses
/// over rectangles are products of error functions, so the answer is exact and cheap.
struct ParcelDensity: Sendable {
    struct Component: Sendable {
        var centerX: Double
        var centerY: Double
        /// 1 / (σ √2), for erf.
        var inverseScale: Double
        /// Share of all parcels, divided by the component's mass inside the region.
        var normalizedWeight: Double
    }

    let components: [Component]
    let baseWeight: Double
    let regionArea: Double

    /// The county's box in Web Mercator meters: 118.95–117.65 W, 33.70–34.82 N.
    static let region: Envelope = Envelope(
        xmin: WebMercator.project(longitude: -118.95, latitude: 33.70).x,
        ymin: WebMercator.project(longitude: -118.95, latitude: 33.70).y,
        xmax: WebMercator.project(longitude: -117.65, latitude: 34.82).x,
        ymax: WebMercator.project(longitude: -117.65, latitude: 34.82).y,
        spatialReference: .webMercator)

    /// (longitude, latitude, σ in Web Mercator meters, share of parcels).
    private static let clusters: [(Double, Double, Double, Double)] = [
        (SampleDataset.viewpointLongitude, SampleDataset.viewpointLatitude, 4_000, 0.10),  // the seed viewpoint
        (-118.25, 34.05, 18_000, 0.33),  // downtown Los Angeles
        (-118.45, 34.20, 12_000, 0.15),  // San Fernando Valley
        (-118.19, 33.79, 8_000, 0.10),  // Long Beach
        (-118.14, 34.15, 6_000, 0.07),  // Pasadena
        (-118.54, 34.40, 6_000, 0.04),  // Santa Clarita
        (-118.14, 34.64, 10_000, 0.05),  // Lancaster and Palmdale
        (-117.80, 34.06, 8_000, 0.06),  // Pomona Valley
        (-118.68, 34.13, 5_000, 0.03),  // Calabasas and Agoura Hills
    ]
    private static let base = 0.07

    init() {
        let region = Self.region
        regionArea = region.width * region.height
        baseWeight = Self.base
        components = Self.clusters.map { longitude, latitude, sigma, share in
            let center = WebMercator.project(longitude: longitude, latitude: latitude)
            let inverse = 1 / (sigma * 2.0.squareRoot())
            var component = Component(centerX: center.x, centerY: center.y, inverseScale: inverse, normalizedWeight: 1)
            let inside = Self.fraction(component, region.xmin, region.ymin, region.xmax, region.ymax)
            component.normalizedWeight = share / max(inside, 1e-12)
            return component
        }
    }

    /// The share of all parcels the rectangle should hold (meters).
    func mass(_ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Double {
        var total = baseWeight * (xmax - xmin) * (ymax - ymin) / regionArea
        for component in components {
            total += component.normalizedWeight * Self.fraction(component, xmin, ymin, xmax, ymax)
        }
        return total
    }

    private static func fraction(_ c: Component, _ xmin: Double, _ ymin: Double, _ xmax: Double, _ ymax: Double) -> Double {
        let fx = erf((xmax - c.centerX) * c.inverseScale) - erf((xmin - c.centerX) * c.inverseScale)
        let fy = erf((ymax - c.centerY) * c.inverseScale) - erf((ymin - c.centerY) * c.inverseScale)
        return 0.25 * fx * fy
    }
}
