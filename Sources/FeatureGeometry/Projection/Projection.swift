/// Moving geometries between WGS 84 (4326) and Web Mercator (3857 and its aliases), the two coordinate
/// systems feature services answer in when asked with `outSR` and the two a web map works in.
///
/// Any other pair is a ``GeometryError/Code/unsupportedSpatialReference`` error: ask the server for the
/// geometry in the spatial reference you need (`outSR`, OGC `crs`) instead.
extension Geometry {
    /// The geometry in `target`'s coordinates, carrying `target` as its spatial reference.
    ///
    /// Throws ``GeometryError/Code/missingSpatialReference`` when the geometry has no spatial reference, and
    /// ``GeometryError/Code/unsupportedSpatialReference`` for a pair other than 4326 and Web Mercator. An
    /// envelope is projected by its corners, which is exact because Web Mercator keeps axis-parallel lines
    /// axis-parallel and is monotonic in both axes. Rings keep their winding.
    package func projected(to target: SpatialReference) throws -> Geometry {
        guard let source = spatialReference else {
            throw GeometryError(
                .missingSpatialReference,
                "the geometry has no spatial reference, so it cannot be projected to \(target); set one first")
        }
        let transform = try Projection.transform(from: source, to: target)
        return mapped(transform, spatialReference: target)
    }

    /// The geometry with every vertex passed through `transform`.
    func mapped(_ transform: Projection.Transform, spatialReference target: SpatialReference) -> Geometry {
        func map(_ positions: [Position]) -> [Position] {
            switch transform {
            case .identity: positions
            case .toWebMercator: positions.map(WebMercator.project)
            case .toWGS84: positions.map(WebMercator.unproject)
            }
        }
        switch self {
        case .point(let point):
            return .point(Point(transform.apply(point.position), spatialReference: target))
        case .multipoint(let multipoint):
            return .multipoint(Multipoint(points: map(multipoint.points), spatialReference: target))
        case .polyline(let polyline):
            return .polyline(Polyline(paths: polyline.paths.map(map), spatialReference: target))
        case .polygon(let polygon):
            var projected = polygon
            projected.rings = polygon.rings.map(map)
            projected.spatialReference = target
            return .polygon(projected)
        case .envelope(let envelope):
            return .envelope(envelope.projected(transform, spatialReference: target))
        }
    }
}

extension Envelope {
    /// The envelope in `target`'s coordinates (corners projected); see ``Geometry/projected(to:)``.
    package func projected(to target: SpatialReference) throws -> Envelope {
        guard let source = spatialReference else {
            throw GeometryError(
                .missingSpatialReference,
                "the envelope has no spatial reference, so it cannot be projected to \(target); set one first")
        }
        return projected(try Projection.transform(from: source, to: target), spatialReference: target)
    }

    func projected(_ transform: Projection.Transform, spatialReference target: SpatialReference) -> Envelope {
        let low = transform.apply(Position(xmin, ymin))
        let high = transform.apply(Position(xmax, ymax))
        return Envelope(xmin: low.x, ymin: low.y, xmax: high.x, ymax: high.y, spatialReference: target)
    }
}

enum Projection {
    /// The supported coordinate transforms.
    enum Transform: Sendable {
        case identity
        case toWebMercator
        case toWGS84

        @inline(__always)
        func apply(_ position: Position) -> Position {
            switch self {
            case .identity: position
            case .toWebMercator: WebMercator.project(position)
            case .toWGS84: WebMercator.unproject(position)
            }
        }
    }

    static func transform(from source: SpatialReference, to target: SpatialReference) throws -> Transform {
        if source == target { return .identity }
        if source.isWGS84 && target.isWebMercator { return .toWebMercator }
        if source.isWebMercator && target.isWGS84 { return .toWGS84 }
        throw GeometryError(
            .unsupportedSpatialReference,
            "cannot project from \(source) to \(target): FeatureGeometry projects only between WGS 84 (4326) "
                + "and Web Mercator (3857, 102100); request the features with outSR=4326 or outSR=3857")
    }
}
