package import FeatureGeometry

/// `result: extent` computed by the worker: the bounding box of the selection's geometries (PostGIS's
/// `ST_Extent`) and how many features it covers, fed one feature at a time in constant memory.
///
/// A feature without a geometry (null or empty) counts but does not extend the box, as `ST_Extent` skips null
/// geometries while `COUNT(*)` counts their rows. Boxes with a NaN edge are treated the same way. The extent
/// carries the spatial reference given at init, else the first added box's.
package struct ExtentAccumulator: Sendable {
    /// The box so far; `nil` while no feature had a geometry.
    package private(set) var extent: Envelope?
    /// Features added, with or without a geometry.
    package private(set) var featureCount = 0
    private let spatialReference: SpatialReference?

    package init(spatialReference: SpatialReference? = nil) {
        self.spatialReference = spatialReference
    }

    /// Adds a feature by its geometry's bounding box; `nil` for a feature without a geometry.
    package mutating func add(_ envelope: Envelope?) {
        featureCount += 1
        guard let envelope, !envelope.xmin.isNaN, !envelope.ymin.isNaN, !envelope.xmax.isNaN, !envelope.ymax.isNaN else {
            return
        }
        if let extent {
            self.extent = extent.union(envelope)
        } else {
            var first = envelope
            if let spatialReference { first.spatialReference = spatialReference }
            extent = first
        }
    }

    /// Adds a feature by its geometry; `nil` for a feature without one.
    package mutating func add(geometry: Geometry?) {
        add(geometry?.extent)
    }

    /// Adds a point feature by its position.
    package mutating func add(_ position: Position) {
        add(Envelope(xmin: position.x, ymin: position.y, xmax: position.x, ymax: position.y))
    }
}
