import FeatureGeometry

/// The spatial part of a query, in the layer's spatial reference: the prepared filter, and when the query
/// geometry is an envelope its exact rectangle, which lets stores accept whole blocks of features without
/// testing each.
struct SpatialQuery: Sendable {
    let filter: SpatialFilter
    /// The query geometry's rectangle when it is an envelope (nil for points, lines, polygons).
    let envelope: Envelope?
    /// Where candidates can be: the filter's search envelope (widened by the relation tolerance).
    let searchEnvelope: Envelope

    var relation: SpatialRelation { filter.relation }

    /// Prepares `geometry` (already in the layer's spatial reference); nil when it is empty.
    init?(geometry: Geometry, relation: SpatialRelation) {
        filter = SpatialFilter(geometry: geometry, relation: relation)
        guard let search = filter.searchEnvelope else { return nil }
        searchEnvelope = search
        if case .envelope(let box) = geometry, box.width > 0, box.height > 0 { envelope = box } else { envelope = nil }
    }

    /// Whether whole nodes inside the query rectangle match without per-feature tests: true for intersects
    /// and envelope-intersects with an envelope (and envelope-intersects with any geometry, by its extent).
    var acceptsInterior: Bool {
        switch relation {
        case .intersects: return envelope != nil
        case .envelopeIntersects: return true
        case .contains, .within: return false
        }
    }

    /// The rectangle whole nodes are accepted inside of.
    var interiorBox: ParcelTree.Box {
        guard acceptsInterior, let box = envelope ?? filter.geometry.extent else {
            return ParcelTree.Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        }
        return ParcelTree.Box(minX: box.xmin, minY: box.ymin, maxX: box.xmax, maxY: box.ymax)
    }

    var searchBox: ParcelTree.Box {
        ParcelTree.Box(
            minX: searchEnvelope.xmin, minY: searchEnvelope.ymin, maxX: searchEnvelope.xmax, maxY: searchEnvelope.ymax)
    }
}
