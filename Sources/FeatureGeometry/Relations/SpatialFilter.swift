/// A spatial query ready to test many features: the query geometry prepared once, the relation, and the
/// rectangle to search an index with.
///
/// It is what the worker applies when it must filter on the client (a service that ignores or cannot take a
/// geometry filter), and what ``SpatialIndex/search(_:geometry:)`` refines candidates with. Features in
/// another spatial reference than the query are projected when the pair is 4326 and Web Mercator.
package struct SpatialFilter: Sendable {
    /// The query geometry, as given.
    package let geometry: Geometry
    /// How the query geometry must relate to a feature for the feature to match.
    package let relation: SpatialRelation
    /// The query geometry's extent widened by the relation tolerance (about 2e-5 units): every matching
    /// feature's extent intersects it, so it is the rectangle to search an index with. `nil` for an empty
    /// query geometry.
    package let searchEnvelope: Envelope?
    let shape: PreparedShape

    /// Prepares `geometry` as the query geometry of `relation` (a large one is indexed by segment once here).
    package init(geometry: Geometry, relation: SpatialRelation = .intersects) {
        self.geometry = geometry
        self.relation = relation
        shape = PreparedShape(geometry).indexed()  // probed by every feature
        if relation == .envelopeIntersects {
            searchEnvelope = geometry.extent
        } else {
            // Wide enough for the tolerance of any feature with coordinates up to 2.1e7 (all of Web Mercator).
            let slack = Tolerance.relative * max(shape.box.magnitude, 2.1e7)
            var box = shape.box
            box.minX -= slack
            box.minY -= slack
            box.maxX += slack
            box.maxY += slack
            searchEnvelope = box.envelope(geometry.spatialReference)
        }
    }

    /// The same filter with the query geometry projected to `target`, e.g. to the spatial reference an index
    /// was built in. See ``Geometry/projected(to:)`` for the errors.
    package func projected(to target: SpatialReference) throws -> SpatialFilter {
        SpatialFilter(geometry: try geometry.projected(to: target), relation: relation)
    }

    /// Whether `feature` matches: the query geometry stands in ``relation`` to it.
    ///
    /// When both have spatial references and they differ, the feature is projected into the query's first;
    /// a pair other than 4326 and Web Mercator is ``GeometryError/Code/unsupportedSpatialReference``. When
    /// either has none, coordinates are compared as they are.
    package func matches(_ feature: Geometry) throws -> Bool {
        var feature = feature
        if let mine = geometry.spatialReference, let theirs = feature.spatialReference, mine != theirs {
            feature = feature.mapped(try Projection.transform(from: theirs, to: mine), spatialReference: mine)
        }
        return relation.evaluate(query: shape, feature: PreparedShape(feature))
    }
}
