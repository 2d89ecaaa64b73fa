#if canImport(FeatureGeometry)
import FeatureGeometry
#endif
import FeatureQuerySupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Synthetic parcels around a viewpoint in Malibu (34.03 N, 118.805 W), in Web Mercator: rotated rectangles
/// 20–40 m a side on the ground, centers normally distributed (σ = 20 km on the ground), so the density is
/// highest at the viewpoint, where a map view holds a few thousand parcels. Parcel `id` is a pure function
/// of `id`, so its polygon can be rebuilt for exact tests without storing 2.4 million polygons.
struct ParcelGenerator {
    static let viewpoint = WebMercator.project(longitude: -118.805, latitude: 34.03)
    /// Web Mercator meters per ground meter at the viewpoint's latitude (1 / cos φ).
    static let scale = 1 / cos(34.03 * Double.pi / 180)
    static let spread = 20_000.0

    static func corners(of id: Int) -> [Position] {
        var random = SplitMix64(seed: UInt64(id) &* 0x2545_F491_4F6C_DD1D &+ 1)
        let cx = viewpoint.x + random.gaussian() * spread * scale
        let cy = viewpoint.y + random.gaussian() * spread * scale
        let halfWidth = random.uniform(10, 20) * scale
        let halfDepth = random.uniform(10, 20) * scale
        let angle = random.uniform(0, Double.pi / 2)
        let (c, s) = (cos(angle), sin(angle))
        return [(-1.0, -1.0), (-1, 1), (1, 1), (1, -1), (-1, -1)].map { (u, v) in
            Position(cx + u * halfWidth * c - v * halfDepth * s, cy + u * halfWidth * s + v * halfDepth * c)
        }
    }

    static func polygon(of id: Int) -> Polygon {
        Polygon(rings: [corners(of: id)], spatialReference: .webMercator)
    }

    /// The boxes of parcels `0..<count`, four Doubles each (minX, minY, maxX, maxY).
    static func boxes(count: Int) -> [Double] {
        var boxes: [Double] = []
        boxes.reserveCapacity(4 * count)
        for id in 0..<count {
            var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
            for corner in corners(of: id) {
                minX = min(minX, corner.x); maxX = max(maxX, corner.x)
                minY = min(minY, corner.y); maxY = max(maxY, corner.y)
            }
            boxes.append(contentsOf: [minX, minY, maxX, maxY])
        }
        return boxes
    }

    /// `count` query extents of `width` × `height` ground meters, centered near the viewpoint (σ = 2 km).
    static func queries(count: Int, width: Double, height: Double, seed: UInt64) -> [Envelope] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let cx = viewpoint.x + random.gaussian() * 2_000 * scale
            let cy = viewpoint.y + random.gaussian() * 2_000 * scale
            let (hw, hh) = (width / 2 * scale, height / 2 * scale)
            return Envelope(xmin: cx - hw, ymin: cy - hh, xmax: cx + hw, ymax: cy + hh, spatialReference: .webMercator)
        }
    }
}
