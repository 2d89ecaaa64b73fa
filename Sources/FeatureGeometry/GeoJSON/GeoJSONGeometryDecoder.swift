import FeatureQuerySupport

/// The GeoJSON reading rules behind ``GeoJSON``.
struct GeoJSONGeometryDecoder {
    private var coordinates: CoordinateDecoder

    init(limits: DecodingLimits) {
        coordinates = CoordinateDecoder(limits: limits)
    }

    /// What a GeoJSON geometry decodes to before it is mapped onto a ``Geometry``.
    private enum Parts {
        case points([Position], single: Bool)
        case paths([[Position]])
        case polygons([[[Position]]])
    }

    mutating func geometry(_ value: ParsedJSON) throws -> Geometry {
        switch try parts(value) {
        case .points(let points, single: true) where points.count == 1:
            return .point(Point(points[0]))
        case .points(let points, _):
            return .multipoint(Multipoint(points: points))
        case .paths(let paths):
            return .polyline(Polyline(paths: paths))
        case .polygons(let polygons):
            var rings: [[Position]] = []
            for polygon in polygons {
                for (index, ring) in polygon.enumerated() {
                    rings.append(RingMath.oriented(ring, clockwise: index == 0))
                }
            }
            var polygon = Polygon(rings: [])
            polygon.rings = rings
            return .polygon(polygon)
        }
    }

    private mutating func parts(_ value: ParsedJSON) throws -> Parts {
        guard case .object(let members) = value else {
            throw GeometryError(.invalidGeometry, "a GeoJSON geometry must be an object; found \(value.kindDescription)")
        }
        guard case .string(let type)? = members["type"] else {
            if members["rings"] != nil || members["paths"] != nil || members["x"] != nil || members["points"] != nil {
                throw GeometryError(.invalidGeometry, "this is Esri JSON, not GeoJSON; decode it with EsriJSON.decode")
            }
            throw GeometryError(.invalidGeometry, "a GeoJSON geometry needs a \"type\" string member")
        }
        if type == "Feature" || type == "FeatureCollection" {
            throw GeometryError(
                .unsupportedGeometryType, "this is a GeoJSON \(type), not a geometry; decode its \"geometry\" member")
        }
        if let bbox = members["bbox"] {
            _ = try inJSONPath(".bbox") { try Self.boundingBox(bbox, spatialReference: nil) }
        }
        if type == "GeometryCollection" {
            guard case .array(let members)? = members["geometries"] else {
                throw GeometryError(.invalidGeometry, "a GeometryCollection needs a \"geometries\" array")
            }
            var collected: [Parts] = []
            for (index, member) in members.enumerated() {
                collected.append(try inJSONPath(".geometries[\(index)]") { try parts(member) })
            }
            return try Self.merge(collected)
        }
        guard let coordinatesValue = members["coordinates"] else {
            throw GeometryError(.invalidGeometry, "a GeoJSON \(type) needs a \"coordinates\" member")
        }
        return try inJSONPath(".coordinates") { try parts(type: type, coordinatesValue) }
    }

    private mutating func parts(type: String, _ value: ParsedJSON) throws -> Parts {
        switch type {
        case "Point":
            if case .array(let items) = value, items.isEmpty {
                throw GeometryError(.emptyGeometry, "the Point has empty coordinates; treat it as no geometry")
            }
            return .points([try coordinates.position(value)], single: true)
        case "MultiPoint":
            return .points(try coordinates.positions(value), single: false)
        case "LineString":
            return .paths([try coordinates.path(value)])
        case "MultiLineString":
            return .paths(try coordinates.positionLists(value, what: "MultiLineString coordinates") { try $0.path($1) })
        case "Polygon":
            return .polygons([try polygon(value)])
        case "MultiPolygon":
            guard case .array(let items) = value else {
                throw GeometryError(
                    .invalidGeometry, "MultiPolygon coordinates must be an array of polygons; found \(value.kindDescription)")
            }
            var polygons: [[[Position]]] = []
            for (index, item) in items.enumerated() {
                polygons.append(try inJSONPath("[\(index)]") { try polygon(item) })
            }
            return .polygons(polygons)
        default:
            throw GeometryError(
                .unsupportedGeometryType,
                "unknown GeoJSON geometry type \"\(type.prefix(40))\"; expected Point, MultiPoint, LineString, "
                    + "MultiLineString, Polygon, MultiPolygon or GeometryCollection")
        }
    }

    private mutating func polygon(_ value: ParsedJSON) throws -> [[Position]] {
        try coordinates.positionLists(value, what: "Polygon coordinates") { try $0.ring($1) }
    }

    /// Merges a GeometryCollection's members into one kind, or fails for a mix.
    private static func merge(_ collected: [Parts]) throws -> Parts {
        if collected.count == 1 { return collected[0] }
        var points: [Position] = []
        var paths: [[Position]] = []
        var polygons: [[[Position]]] = []
        var kinds: Set<String> = []
        for part in collected {
            switch part {
            case .points(let more, _): points += more; kinds.insert("points")
            case .paths(let more): paths += more; kinds.insert("lines")
            case .polygons(let more): polygons += more; kinds.insert("polygons")
            }
        }
        guard kinds.count <= 1 else {
            throw GeometryError(
                .unsupportedGeometryType,
                "the GeometryCollection mixes \(kinds.sorted().joined(separator: " and ")); a feature has one geometry "
                    + "type, as in ArcGIS, so split the collection into features of one type each")
        }
        switch kinds.first {
        case "lines": return .paths(paths)
        case "polygons": return .polygons(polygons)
        case "points": return .points(points, single: false)
        default:
            throw GeometryError(.emptyGeometry, "the GeometryCollection has no geometries; treat it as no geometry")
        }
    }

    static func boundingBox(_ value: ParsedJSON, spatialReference: SpatialReference?) throws -> Envelope {
        guard case .array(let items) = value, items.count == 4 || items.count == 6 else {
            throw GeometryError(
                .invalidGeometry, "a bbox must be an array of 4 numbers (or 6 with Z); found \(value.kindDescription)")
        }
        var numbers: [Double] = []
        for (index, item) in items.enumerated() {
            numbers.append(try inJSONPath("[\(index)]") { try CoordinateDecoder.coordinate(item, name: "a bbox value") })
        }
        let half = items.count / 2
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[half], numbers[half + 1])
        guard west <= east, south <= north else {
            throw GeometryError(
                .invalidGeometry,
                "the bbox [\(west), \(south), \(east), \(north)] is inverted or crosses the antimeridian; an envelope "
                    + "cannot wrap around, so split it at 180°")
        }
        return Envelope(xmin: west, ymin: south, xmax: east, ymax: north, spatialReference: spatialReference)
    }
}
