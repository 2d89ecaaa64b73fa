import FeatureGeometry

/// Splits a large collection into spatial tiles fetched at once (OGC paging by `next` is sequential, so a
/// tile is the unit of parallelism), and decides which tile owns a feature so that each counts once.
///
/// The tiles partition the `region` (the query box, or the whole world): cut lines are placed inside the
/// data's `extent`, and the outer tiles reach the region's edges, so a feature outside a wrong declared
/// extent still falls in a tile. A feature on a shared edge comes back from two tiles: features with an `id`
/// are deduplicated by it; one without is owned by the first tile (in tile order) whose box its geometry
/// intersects, as tested here with FeatureGeometry (a feature without geometry, which every bbox matches,
/// by the first tile).
struct TilePlanner {
    /// `[west, south, east, north]` of each tile, row by row.
    static func tiles(region: [Double], extent: [Double]?, perSide: Int) -> [[Double]] {
        let inner = extent.flatMap { box -> [Double]? in
            guard box.count == 4, box[0] <= box[2], box[1] <= box[3] else { return nil }
            let clipped = [max(box[0], region[0]), max(box[1], region[1]), min(box[2], region[2]), min(box[3], region[3])]
            return clipped[0] < clipped[2] && clipped[1] < clipped[3] ? clipped : nil
        } ?? region
        func cuts(_ low: Double, _ high: Double, outerLow: Double, outerHigh: Double) -> [Double] {
            var values = [outerLow]
            for step in 1..<perSide { values.append(low + (high - low) * Double(step) / Double(perSide)) }
            values.append(outerHigh)
            return values
        }
        let xs = cuts(inner[0], inner[2], outerLow: region[0], outerHigh: region[2])
        let ys = cuts(inner[1], inner[3], outerLow: region[1], outerHigh: region[3])
        var tiles: [[Double]] = []
        for row in 0..<perSide {
            for column in 0..<perSide { tiles.append([xs[column], ys[row], xs[column + 1], ys[row + 1]]) }
        }
        return tiles
    }

    /// Whether tile `index` of `tiles` owns a feature without `id` with `geometry`: no earlier tile's box
    /// intersects it.
    static func owns(_ index: Int, of tiles: [[Double]], geometry: Geometry?) -> Bool {
        guard let geometry else { return index == 0 }
        for earlier in tiles.prefix(index) {
            let box = Geometry.envelope(
                Envelope(xmin: earlier[0], ymin: earlier[1], xmax: earlier[2], ymax: earlier[3], spatialReference: .wgs84))
            if (try? SpatialFilter(geometry: box, relation: .intersects).matches(geometry)) ?? false { return false }
        }
        return true
    }
}
