/// The spatial relations FeatureGeometry evaluates locally, named as ArcGIS REST's `spatialRel` names them,
/// and in the direction it uses: the *query* geometry relates to the *feature* geometry.
///
/// Semantics (OGC simple features, closed point sets), used when a service cannot filter by itself, e.g. an
/// OGC API Features server that supports `bbox` but not a polygon filter:
/// - ``intersects``: the two share at least one point; touching at a vertex or along an edge counts.
/// - ``envelopeIntersects``: their bounding rectangles share a point.
/// - ``contains``: no point of the feature lies outside the query geometry and their interiors meet. An area
///   does not contain a point or line lying only on its boundary; it does contain a polygon that shares
///   edges with it (and itself); a line does not contain its own end points.
/// - ``within``: the query geometry lies within the feature (``contains`` with the roles swapped).
///
/// "On" a boundary means within the ``Tolerance`` distance (1e-12 of the coordinates' magnitude), so shared
/// vertices and edges of neighbouring parcels are found reliably. Degenerate input (rings with no area,
/// self-intersecting rings, zero-length paths) is related as well as floating point allows but not promised.
package enum SpatialRelation: String, Hashable, Sendable, CaseIterable {
    case intersects = "esriSpatialRelIntersects"
    case envelopeIntersects = "esriSpatialRelEnvelopeIntersects"
    case contains = "esriSpatialRelContains"
    case within = "esriSpatialRelWithin"

    /// Reads a `spatialRel` value. `esriSpatialRelIndexIntersects` is read as ``envelopeIntersects`` (the
    /// server's index test is a superset of it). Crosses, Overlaps, Touches and Relation are
    /// ``GeometryError/Code/unsupportedRelation``: send those to the server.
    package init(esriName: String) throws {
        if let relation = SpatialRelation(rawValue: esriName) {
            self = relation
            return
        }
        if esriName == "esriSpatialRelIndexIntersects" {
            self = .envelopeIntersects
            return
        }
        let supported = SpatialRelation.allCases.map(\.rawValue).joined(separator: ", ")
        throw GeometryError(
            .unsupportedRelation,
            "the spatial relation \"\(esriName.prefix(60))\" cannot be evaluated locally; supported: \(supported). "
                + "Let the server evaluate it instead")
    }

    /// The name ArcGIS REST uses, for the `spatialRel` query parameter.
    package var esriName: String { rawValue }

    func evaluate(query: PreparedShape, feature: PreparedShape) -> Bool {
        switch self {
        case .intersects: Relate.intersects(query, feature)
        case .envelopeIntersects: !query.isEmpty && !feature.isEmpty && query.box.intersects(feature.box)
        case .contains: Relate.contains(query, feature)
        case .within: Relate.contains(feature, query)
        }
    }
}

extension Geometry {
    /// Whether the two geometries share at least one point (see ``SpatialRelation/intersects``). Coordinates
    /// are compared as they are: both must be in the same spatial reference (use ``SpatialFilter`` to have
    /// that checked and handled).
    package func intersects(_ other: Geometry) -> Bool {
        Relate.intersects(PreparedShape(self), PreparedShape(other))
    }

    /// Whether this geometry contains `other` (see ``SpatialRelation/contains``); same spatial reference.
    package func contains(_ other: Geometry) -> Bool {
        Relate.contains(PreparedShape(self), PreparedShape(other))
    }

    /// Whether this geometry lies within `other`: `other.contains(self)`; same spatial reference.
    package func within(_ other: Geometry) -> Bool {
        Relate.contains(PreparedShape(other), PreparedShape(self))
    }

    /// Whether the two geometries' bounding rectangles share a point; same spatial reference.
    package func envelopeIntersects(_ other: Geometry) -> Bool {
        guard let mine = extent, let theirs = other.extent else { return false }
        return mine.intersects(theirs)
    }

    /// Whether this geometry, as the query geometry, stands in `relation` to `feature`; same spatial reference.
    package func relates(to feature: Geometry, by relation: SpatialRelation) -> Bool {
        relation.evaluate(query: PreparedShape(self), feature: PreparedShape(feature))
    }
}
