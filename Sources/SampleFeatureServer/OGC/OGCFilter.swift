import FeatureGeometry
import QueryLanguage

/// The Part 3 `filter` parameter: CQL2 text or CQL2-JSON, read by QueryLanguage's ``CQL2Filter`` into an
/// attribute condition (evaluated by the same evaluator the ArcGIS face uses for `where`) and spatial
/// predicates, which become regions tested with FeatureGeometry against the features' geometries.
struct OGCFilter: Sendable {
    /// The CQL2 encodings this face reads.
    static let languages = ["cql2-text", "cql2-json"]
    /// The CQL2 conformance classes the face declares and supports.
    static let cql2Classes = [
        CQL2Conformance.text, CQL2Conformance.json, CQL2Conformance.basic, CQL2Conformance.advancedComparison,
        CQL2Conformance.caseInsensitive, CQL2Conformance.basicSpatialFunctions, CQL2Conformance.basicSpatialFunctionsPlus,
    ]

    /// The attribute condition, if any.
    let attributes: FilterExpression?
    /// One region per spatial predicate (all must hold).
    let regions: [OGCRegion]

    /// Reads `filter` in `language` with coordinates in `crs` (`filter-crs`: CRS84 or EPSG:4326).
    init(_ text: String, language: String, crs: OGCCRS) throws(OGCError) {
        let filter: CQL2Filter
        do {
            switch language.lowercased() {
            case "cql2-text": filter = try CQL2Filter(text: text)
            case "cql2-json": filter = try CQL2Filter(json: text)
            default:
                throw OGCError.invalidParameter(
                    "'filter-lang' must be one of \(Self.languages.joined(separator: ", ")); found '\(language.prefix(40))'")
            }
        } catch let error as OGCError {
            throw error
        } catch let error as QueryLanguageError {
            throw .invalidParameter("'filter' is not valid \(language.lowercased()): \(error.message)")
        } catch {
            throw .invalidParameter("'filter' is not valid: \(error)")
        }
        let missing = filter.missingConformanceClasses(declared: Self.cql2Classes)
        guard missing.isEmpty else {
            throw .invalidParameter("'filter' needs conformance classes this API does not declare: \(missing.joined(separator: ", "))")
        }
        attributes = filter.attributes?.expression
        var regions: [OGCRegion] = []
        for predicate in filter.spatialPredicates {
            guard predicate.property.lowercased() == "geometry" else {
                throw .invalidParameter("the filter's '\(predicate.property.prefix(40))' is not a spatial queryable; use 'geometry'")
            }
            guard predicate.relation == .intersects else {
                throw .invalidParameter("the filter's \(predicate.relation.textName) is not supported; use S_INTERSECTS")
            }
            regions.append(try OGCRegion(predicate.geometry, crs: crs))
        }
        self.regions = regions
    }
}

/// An area features must intersect: a bbox (two rectangles when it crosses the antimeridian) or a CQL2
/// geometry literal, in WGS 84 longitude/latitude.
struct OGCRegion: Sendable {
    /// The shapes, any of which a feature may intersect.
    let shapes: [Geometry]

    init(shapes: [Geometry]) {
        self.shapes = shapes
    }

    /// The selection cache's name for the region.
    var key: String { shapes.map { "\($0)" }.joined(separator: ";") }

    init(_ literal: CQL2GeometryLiteral, crs: OGCCRS) throws(OGCError) {
        func position(_ values: CQL2Position) throws(OGCError) -> Position {
            guard values.count >= 2, values[0].isFinite, values[1].isFinite else {
                throw .invalidParameter("a position in the filter's geometry needs two finite numbers")
            }
            return crs.lonLat(values[0], values[1])
        }
        func positions(_ list: [CQL2Position]) throws(OGCError) -> [Position] {
            var result: [Position] = []
            for values in list { result.append(try position(values)) }
            return result
        }
        switch literal {
        case .bbox(let values):
            guard values.count == 4 || values.count == 6 else { throw .invalidParameter("BBOX takes 4 or 6 numbers") }
            let corners = values.count == 6 ? [values[0], values[1], values[3], values[4]] : values
            shapes = crs.lonLatBoxes(corners).map { .envelope($0) }
        case .point(let values):
            shapes = [.point(Point(try position(values), spatialReference: .wgs84))]
        case .multiPoint(let list):
            shapes = [.multipoint(Multipoint(points: try positions(list), spatialReference: .wgs84))]
        case .lineString(let list):
            shapes = [.polyline(Polyline(paths: [try positions(list)], spatialReference: .wgs84))]
        case .multiLineString(let lines):
            var paths: [[Position]] = []
            for line in lines { paths.append(try positions(line)) }
            shapes = [.polyline(Polyline(paths: paths, spatialReference: .wgs84))]
        case .polygon(let rings):
            var list: [[Position]] = []
            for ring in rings { list.append(try positions(ring)) }
            shapes = [.polygon(Polygon(rings: list, spatialReference: .wgs84))]  // even-odd: orientation is moot
        case .multiPolygon(let polygons):
            var list: [[Position]] = []
            for rings in polygons { for ring in rings { list.append(try positions(ring)) } }
            shapes = [.polygon(Polygon(rings: list, spatialReference: .wgs84))]
        case .geometryCollection:
            throw .invalidParameter("GEOMETRYCOLLECTION literals are not supported in filters")
        }
    }
}
