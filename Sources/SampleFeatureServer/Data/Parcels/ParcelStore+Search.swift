import FeatureGeometry

/// Spatial search over the parcels: the subdivision tree finds candidates, whole blocks inside the query
/// rectangle are taken without tests, rectangles that overlap the query are taken by their box, and only
/// the rest (cut corners at the edge, other relations and geometries) go through FeatureGeometry.
extension ParcelStore {
    /// Indices of the parcels that match, ascending, restricted to those `include` accepts.
    func matches(_ query: SpatialQuery, include: (Int) -> Bool) throws -> [Int32] {
        var result: [Int32] = []
        var visited = 0
        let outer = query.searchBox
        let inner = query.interiorBox
        let relation = query.relation
        try tree.visit(outer: outer, inner: inner) { first, count in
            visited += count
            if visited > 65_536 {
                visited = 0
                try Task.checkCancellation()
            }
            result.reserveCapacity(result.count + count)
            for index in first..<(first + count) where include(index) {
                result.append(Int32(truncatingIfNeeded: index))
            }
        } bucket: { first, count in
            for index in first..<(first + count) where include(index) {
                let x0 = Double(xmin[index]) / 100, y0 = Double(ymin[index]) / 100
                let x1 = Double(xmax[index]) / 100, y1 = Double(ymax[index]) / 100
                if x0 > outer.maxX || y0 > outer.maxY || x1 < outer.minX || y1 < outer.minY { continue }
                if try matches(index, x0, y0, x1, y1, query, relation, inner) {
                    result.append(Int32(truncatingIfNeeded: index))
                }
            }
        }
        return result
    }

    @inline(__always)
    private func matches(
        _ index: Int, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ query: SpatialQuery,
        _ relation: SpatialRelation, _ inner: ParcelTree.Box
    ) throws -> Bool {
        switch relation {
        case .envelopeIntersects:
            return x0 <= inner.maxX && inner.minX <= x1 && y0 <= inner.maxY && inner.minY <= y1
        case .intersects where query.envelope != nil:
            if inner.minX <= x0 && inner.minY <= y0 && x1 <= inner.maxX && y1 <= inner.maxY { return true }
            if corner[index] == 0, x0 <= inner.maxX, inner.minX <= x1, y0 <= inner.maxY, inner.minY <= y1 { return true }
            return try query.filter.matches(polygon(index))
        default:
            return try query.filter.matches(polygon(index))
        }
    }
}
