import FeatureGeometry
import FeatureService

/// The spatial part of a query against a collection: the `bbox` parameters to send (CRS84 lon/lat, one box,
/// or two when the query box crosses the antimeridian: fetched separately and merged) and the exact relation
/// evaluated in the worker on every feature that comes back (servers test `bbox` by intersection only, and
/// some get it wrong).
///
/// A query geometry in WGS 84 or Web Mercator is related here (Web Mercator is projected to WGS 84). An
/// envelope in another EPSG spatial reference is sent as it is with `bbox-crs` (Part 2), when the API
/// declares `crs` and the collection lists that CRS; the server's answer is then the filter (features come back
/// in CRS84 and cannot be related to it here). Anything else is `invalid_query`.
struct SpatialPlan: Sendable {
    /// `[west, south, east, north]` per request sequence (in ``bboxCRS``, else CRS84); empty for none.
    let boxes: [[Double]]
    /// The `bbox-crs` to send; nil for CRS84.
    var bboxCRS: String? = nil
    /// The exact relation, one filter per box (the pieces of a split query box); empty for none.
    let filters: [SpatialFilter]
    /// Whether the bbox alone is the whole filter (an envelope asked with intersects).
    let serverEvaluatesAll: Bool

    static let none = SpatialPlan(boxes: [], filters: [], serverEvaluatesAll: true)

    /// Whether no `bbox` is sent (there may still be a relation to check here: ``hasLocalFilter``).
    var isEmpty: Bool { boxes.isEmpty }

    /// Whether features are related to the query geometry here.
    var hasLocalFilter: Bool { !filters.isEmpty }

    /// The box a feature's geometry (CRS84) can be compared with: none when the box is in another CRS.
    func comparableBox(_ box: [Double]?) -> [Double]? { bboxCRS == nil ? box : nil }

    static func plan(
        _ geometry: Geometry?, relation: SpatialRelation, layer: String, collectionCRS: [String] = [], supportsCRS: Bool = false
    ) throws(FeatureServiceError) -> SpatialPlan {
        guard var geometry else { return .none }
        if let reference = geometry.spatialReference, !reference.isWGS84 {
            guard reference.isWebMercator else {
                return try foreign(geometry, reference: reference, relation: relation, layer: layer, collectionCRS: collectionCRS,
                                   supportsCRS: supportsCRS)
            }
            do { geometry = try geometry.projected(to: .wgs84) } catch {
                throw OGCFailure.invalidQuery(layer, "the query geometry cannot be projected to WGS 84: \(error)")
            }
        }
        guard let extent = geometry.extent else {
            throw OGCFailure.invalidQuery(layer, "the query geometry is empty")
        }
        if relation == .envelopeIntersects {
            // `bbox` selects features whose geometry meets the box; a feature whose envelope meets it but whose
            // shape does not would be missing. So nothing spatial is sent, and every feature's envelope is
            // related here: complete, at the cost of reading the collection (filtered by the worker).
            return SpatialPlan(boxes: [], filters: [SpatialFilter(geometry: geometry, relation: relation)], serverEvaluatesAll: false)
        }
        let boxes = split(west: extent.xmin, south: extent.ymin, east: extent.xmax, north: extent.ymax)
        let filters: [SpatialFilter]
        if case .envelope = geometry, boxes.count > 1 {
            filters = boxes.map { box in
                SpatialFilter(
                    geometry: .envelope(Envelope(xmin: box[0], ymin: box[1], xmax: box[2], ymax: box[3], spatialReference: .wgs84)),
                    relation: relation)
            }
        } else {
            filters = [SpatialFilter(geometry: geometry, relation: relation)]
        }
        let isBox = if case .envelope = geometry { true } else { false }
        return SpatialPlan(boxes: boxes, bboxCRS: nil, filters: filters, serverEvaluatesAll: isBox && relation == .intersects)
    }

    /// An envelope in a CRS the collection serves, sent with `bbox-crs` (its axis order: the engine sends the
    /// envelope's x, y as they are, right for the projected CRSs of EPSG's east/north order).
    private static func foreign(
        _ geometry: Geometry, reference: SpatialReference, relation: SpatialRelation, layer: String, collectionCRS: [String],
        supportsCRS: Bool
    ) throws(FeatureServiceError) -> SpatialPlan {
        let uri = "http://www.opengis.net/def/crs/EPSG/0/\(reference.wkid)"
        guard supportsCRS, collectionCRS.contains(where: { $0.lowercased() == uri.lowercased() }) else {
            throw OGCFailure.invalidQuery(
                layer, "the query geometry is in \(reference), which the collection does not serve (Part 2 `crs`); "
                    + "use WGS 84 (4326) or Web Mercator (3857)")
        }
        guard case .envelope(let box) = geometry, relation == .intersects else {
            throw OGCFailure.invalidQuery(
                layer, "in \(reference) only an envelope with intersects can be asked (as `bbox-crs`); the exact relation "
                    + "cannot be evaluated on CRS84 features here: use WGS 84 (4326) or Web Mercator (3857)")
        }
        return SpatialPlan(
            boxes: [[box.xmin, box.ymin, box.xmax, box.ymax]], bboxCRS: uri, filters: [], serverEvaluatesAll: true)
    }

    /// A lon/lat box as the boxes a server takes: longitudes beyond ±180 (or west > east) mean the box
    /// crosses the antimeridian, and it becomes two, one each side.
    static func split(west: Double, south: Double, east: Double, north: Double) -> [[Double]] {
        let south = max(-90, south)
        let north = min(90, north)
        if east - west >= 360 { return [[-180, south, 180, north]] }
        var west = west
        var east = east
        if west > east { east += 360 }
        while west < -180 {
            west += 360
            east += 360
        }
        while west >= 180 {
            west -= 360
            east -= 360
        }
        if east <= 180 { return [[west, south, east, north]] }
        return [[west, south, 180, north], [-180, south, east - 360, north]]
    }

    /// Whether `feature` (decoded in WGS 84) satisfies the relation with any piece; false for no geometry.
    func matches(_ feature: Geometry?) -> Bool {
        guard !filters.isEmpty else { return true }
        guard let feature else { return false }
        return filters.contains { (try? $0.matches(feature)) ?? false }
    }

    /// Whether a feature the server returned for `box` lies outside it altogether: a server that does not
    /// filter by `bbox` (or gets the antimeridian wrong). Features without geometry match any bbox.
    static func isOutside(_ feature: Geometry?, box: [Double]) -> Bool {
        guard let extent = feature?.extent, box.count == 4 else { return false }
        let slack = 1e-6
        return extent.xmax < box[0] - slack || extent.xmin > box[2] + slack || extent.ymax < box[1] - slack
            || extent.ymin > box[3] + slack
    }
}
