import FeatureGeometry
import PropertyBased
import Testing

/// Expects `body` to throw a ``GeometryError`` with `code`, and returns it for further checks.
@discardableResult
func expectGeometryError(
    _ code: GeometryError.Code, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> GeometryError? {
    let error = #expect(throws: GeometryError.self, sourceLocation: sourceLocation) { try body() }
    #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
    if let error { #expect(!error.message.isEmpty, sourceLocation: sourceLocation) }
    return error
}

func position(_ x: Double, _ y: Double) -> Position { Position(x, y) }

/// A closed ring from corner pairs.
func ring(_ corners: [(Double, Double)]) -> [Position] {
    var ring = corners.map { Position($0.0, $0.1) }
    if let first = ring.first, first != ring.last { ring.append(first) }
    return ring
}

/// A clockwise square ring (an Esri outer ring), or counter-clockwise (an Esri hole).
func square(_ x: Double, _ y: Double, _ size: Double, clockwise: Bool = true) -> [Position] {
    let corners = [(x, y), (x, y + size), (x + size, y + size), (x + size, y)]
    return ring(clockwise ? corners : corners.reversed())
}

func polygon(_ rings: [Position]...) -> Geometry { .polygon(Polygon(rings: rings)) }
func point(_ x: Double, _ y: Double) -> Geometry { .point(Point(x: x, y: y)) }
func line(_ vertices: (Double, Double)...) -> Geometry {
    .polyline(Polyline(paths: [vertices.map { Position($0.0, $0.1) }]))
}

/// Random geometry for property tests, built straight from the property checker's random source.
enum RandomGeometry {
    /// A coordinate with full Double precision, sometimes integral or tiny, to exercise number formatting.
    static func coordinate(_ rng: inout some RandomNumberGenerator, _ range: ClosedRange<Double>) -> Double {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return Double(Int.random(in: Int(range.lowerBound)...Int(range.upperBound), using: &rng))
        case 1: return Double.random(in: -1e-5...1e-5, using: &rng)
        default: return Double.random(in: range, using: &rng)
        }
    }

    static func position(_ rng: inout some RandomNumberGenerator, _ range: ClosedRange<Double> = -180...180) -> Position {
        Position(coordinate(&rng, range), coordinate(&rng, range))
    }

    /// A star-shaped ring around `center` (radii between 0.6 and 1 of `radius`), clockwise or not.
    static func starRing(
        _ rng: inout some RandomNumberGenerator, center: Position, radius: Double, clockwise: Bool
    ) -> [Position] {
        let count = Int.random(in: 3...12, using: &rng)
        var ring: [Position] = (0..<count).map { k in
            let angle = -2 * Double.pi * Double(k) / Double(count)  // clockwise
            let r = radius * Double.random(in: 0.6...1, using: &rng)
            return Position(center.x + r * cosine(angle), center.y + r * sine(angle))
        }
        if !clockwise { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    /// A polygon of one to three separate parts, each with zero to two holes, in the Esri convention.
    static func polygon(_ rng: inout some RandomNumberGenerator) -> Polygon {
        var rings: [[Position]] = []
        for part in 0..<Int.random(in: 1...3, using: &rng) {
            let center = Position(Double(part) * 40 - 100 + Double.random(in: -5...5, using: &rng),
                                  Double.random(in: -50...50, using: &rng))
            let radius = Double.random(in: 5...15, using: &rng)
            rings.append(starRing(&rng, center: center, radius: radius, clockwise: true))
            let holes = Int.random(in: 0...2, using: &rng)
            for hole in 0..<holes {
                let offset = (Double(hole) - 0.5) * radius * 0.3
                rings.append(starRing(&rng, center: Position(center.x + offset, center.y), radius: radius * 0.12,
                                      clockwise: false))
            }
        }
        return Polygon(rings: rings, spatialReference: .wgs84)
    }

    static func geometry(_ rng: inout some RandomNumberGenerator) -> Geometry {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            return .point(Point(position(&rng), spatialReference: .wgs84))
        case 1:
            let points = (0..<Int.random(in: 1...8, using: &rng)).map { _ in position(&rng) }
            return .multipoint(Multipoint(points: points, spatialReference: .wgs84))
        case 2:
            let paths = (0..<Int.random(in: 1...3, using: &rng)).map { _ in
                (0..<Int.random(in: 2...8, using: &rng)).map { _ in position(&rng) }
            }
            return .polyline(Polyline(paths: paths, spatialReference: .wgs84))
        case 3:
            return .polygon(polygon(&rng))
        default:
            let a = position(&rng)
            let b = position(&rng)
            return .envelope(Envelope(xmin: min(a.x, b.x), ymin: min(a.y, b.y), xmax: max(a.x, b.x),
                                      ymax: max(a.y, b.y), spatialReference: .wgs84))
        }
    }

    /// Small shapes on a coarse grid, so relations meet at shared vertices and edges often.
    static func gridGeometry(_ rng: inout some RandomNumberGenerator) -> Geometry {
        func gridPoint() -> Position {
            Position(Double(Int.random(in: 0...6, using: &rng)), Double(Int.random(in: 0...6, using: &rng)))
        }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .point(Point(gridPoint()))
        case 1: return .multipoint(Multipoint(points: [gridPoint(), gridPoint()]))
        case 2: return .polyline(Polyline(paths: [[gridPoint(), gridPoint(), gridPoint()]]))
        case 3:
            let x = Double(Int.random(in: 0...4, using: &rng))
            let y = Double(Int.random(in: 0...4, using: &rng))
            let size = Double(Int.random(in: 1...3, using: &rng))
            var rings = [square(x, y, size)]
            if size == 3 && Bool.random(using: &rng) { rings.append(square(x + 1, y + 1, 1, clockwise: false)) }
            return .polygon(Polygon(rings: rings))
        default:
            let a = gridPoint()
            let b = gridPoint()
            return .envelope(Envelope(xmin: a.x, ymin: a.y, xmax: b.x, ymax: b.y))
        }
    }
}

/// Property generators over ``RandomGeometry``.
enum Generators {
    static let geometry = Generator<Geometry, Shrink.None<Geometry>>(run: { rng in RandomGeometry.geometry(&rng) })
    static let gridGeometry = Generator<Geometry, Shrink.None<Geometry>>(run: { rng in RandomGeometry.gridGeometry(&rng) })
    static let polygon = Generator<Polygon, Shrink.None<Polygon>>(run: { rng in RandomGeometry.polygon(&rng) })
}
