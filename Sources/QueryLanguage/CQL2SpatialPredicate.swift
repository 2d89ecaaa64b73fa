/// A spatial predicate of a CQL2 filter (`S_INTERSECTS(geometry, BBOX(...))`), kept apart from the attribute
/// condition because this module has no geometry: the server tests it with its own geometry code.
///
/// QueryLanguage may not depend on FeatureGeometry (Package.swift), so the literal is plain coordinates in
/// CRS84 (longitude, latitude[, height]) and the server converts it.
package struct CQL2SpatialPredicate: Hashable, Sendable {
    /// How the record's geometry must relate to ``geometry``: `relation(property, geometry)` holds.
    package var relation: CQL2SpatialRelation
    /// The geometry property the predicate tests, as written (`geometry`, `geom`, ...).
    package var property: String
    /// The literal the property is compared with.
    package var geometry: CQL2GeometryLiteral

    package init(relation: CQL2SpatialRelation, property: String, geometry: CQL2GeometryLiteral) {
        self.relation = relation
        self.property = property
        self.geometry = geometry
    }
}

/// The spatial functions of CQL2 (the DE-9IM relations), by their CQL2-JSON `op` names.
package enum CQL2SpatialRelation: String, Hashable, Sendable, CaseIterable {
    case intersects = "s_intersects"
    case disjoint = "s_disjoint"
    case equals = "s_equals"
    case touches = "s_touches"
    case crosses = "s_crosses"
    case overlaps = "s_overlaps"
    case within = "s_within"
    case contains = "s_contains"

    /// The relation by its name in any letter case (`S_INTERSECTS`, `s_intersects`).
    package init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The relation with its arguments swapped: `S_WITHIN(a, b)` is `S_CONTAINS(b, a)`; the rest are symmetric.
    package var converse: CQL2SpatialRelation {
        switch self {
        case .within: return .contains
        case .contains: return .within
        default: return self
        }
    }

    /// The CQL2 text spelling, `S_INTERSECTS`.
    package var textName: String { rawValue.uppercased() }
}

/// One position: longitude and latitude in CRS84, and a height when the literal has three dimensions.
package typealias CQL2Position = [Double]

/// A geometry literal of a CQL2 filter: a WKT or GeoJSON geometry, or a bounding box.
package indirect enum CQL2GeometryLiteral: Hashable, Sendable {
    /// `BBOX(west, south, east, north)` or, with heights, `BBOX(w, s, minH, e, n, maxH)`: 4 or 6 numbers.
    case bbox([Double])
    case point(CQL2Position)
    case lineString([CQL2Position])
    /// Rings; the first is the outer one.
    case polygon([[CQL2Position]])
    case multiPoint([CQL2Position])
    case multiLineString([[CQL2Position]])
    case multiPolygon([[[CQL2Position]]])
    case geometryCollection([CQL2GeometryLiteral])

    /// Whether Basic Spatial Functions covers the literal (a point or a bounding box); other shapes need
    /// Basic Spatial Functions Plus.
    var isBasic: Bool {
        switch self {
        case .bbox, .point: return true
        default: return false
        }
    }
}
