import FeatureQuerySupport

/// The Esri JSON reading rules behind ``EsriJSON``.
struct EsriGeometryDecoder {
    private var coordinates: CoordinateDecoder

    init(limits: DecodingLimits) {
        coordinates = CoordinateDecoder(limits: limits)
    }

    /// The members that say which geometry an object is.
    private static let shapeKeys = ["x", "xmin", "points", "paths", "rings"]

    mutating func geometry(_ value: ParsedJSON) throws -> Geometry {
        guard case .object(let members) = value else {
            throw GeometryError(.invalidGeometry, "an Esri JSON geometry must be an object; found \(value.kindDescription)")
        }
        if members["curvePaths"] != nil || members["curveRings"] != nil {
            throw GeometryError(
                .unsupportedGeometryType,
                "the geometry has curves (curvePaths/curveRings), which FeatureGeometry does not model; query with "
                    + "returnTrueCurves=false to get densified paths and rings")
        }
        let present = Self.shapeKeys.filter { members[$0] != nil }
        guard present.count == 1, let key = present.first else {
            if members["type"] != nil, members["coordinates"] != nil || members["geometries"] != nil {
                throw GeometryError(.invalidGeometry, "this is GeoJSON, not Esri JSON; decode it with GeoJSON.decode")
            }
            let found = present.isEmpty ? "none of them" : present.joined(separator: " and ")
            throw GeometryError(
                .invalidGeometry,
                "an Esri JSON geometry has exactly one of x, xmin, points, paths or rings; found \(found)")
        }
        let spatialReference = try members["spatialReference"].flatMap { value -> SpatialReference? in
            if case .null = value { return nil }
            return try inJSONPath(".spatialReference") { try Self.spatialReference(value) }
        }
        switch key {
        case "x":
            return .point(try point(members, spatialReference))
        case "xmin":
            return .envelope(try envelope(members, spatialReference))
        case "points":
            let points = try inJSONPath(".points") { try coordinates.positions(members["points"] ?? .null) }
            return .multipoint(Multipoint(points: points, spatialReference: spatialReference))
        case "paths":
            let paths = try inJSONPath(".paths") {
                try coordinates.positionLists(members["paths"] ?? .null, what: "paths") { try $0.path($1) }
            }
            return .polyline(Polyline(paths: paths, spatialReference: spatialReference))
        default:
            let rings = try inJSONPath(".rings") {
                try coordinates.positionLists(members["rings"] ?? .null, what: "rings") { try $0.ring($1) }
            }
            var polygon = Polygon(rings: [], spatialReference: spatialReference)
            polygon.rings = RingMath.normalizedEsriRings(rings)
            return .polygon(polygon)
        }
    }

    private func point(_ members: [String: ParsedJSON], _ spatialReference: SpatialReference?) throws -> Point {
        let x = members["x"] ?? .null
        if Self.isEmptyMarker(x) {
            throw GeometryError(
                .emptyGeometry, "the point is empty (x is null or \"NaN\"); treat the feature as having no geometry",
                path: "$.x")
        }
        let xValue = try inJSONPath(".x") { try CoordinateDecoder.coordinate(x, name: "x") }
        guard let y = members["y"] else {
            throw GeometryError(.invalidGeometry, "the point has x but no y")
        }
        let yValue = try inJSONPath(".y") { try CoordinateDecoder.coordinate(y, name: "y") }
        return Point(x: xValue, y: yValue, spatialReference: spatialReference)
    }

    private func envelope(_ members: [String: ParsedJSON], _ spatialReference: SpatialReference?) throws -> Envelope {
        if Self.isEmptyMarker(members["xmin"] ?? .null) {
            throw GeometryError(
                .emptyGeometry, "the envelope is empty (xmin is null or \"NaN\")", path: "$.xmin")
        }
        var values: [Double] = []
        for name in ["xmin", "ymin", "xmax", "ymax"] {
            guard let member = members[name] else {
                throw GeometryError(.invalidGeometry, "the envelope has xmin but no \(name)")
            }
            values.append(try inJSONPath(".\(name)") { try CoordinateDecoder.coordinate(member, name: name) })
        }
        guard values[0] <= values[2], values[1] <= values[3] else {
            throw GeometryError(
                .invalidGeometry,
                "the envelope is inverted (xmin \(values[0]), xmax \(values[2]), ymin \(values[1]), ymax \(values[3])); "
                    + "the minimum must not exceed the maximum")
        }
        return Envelope(xmin: values[0], ymin: values[1], xmax: values[2], ymax: values[3],
                        spatialReference: spatialReference)
    }

    private static func isEmptyMarker(_ value: ParsedJSON) -> Bool {
        switch value {
        case .null: true
        case .string(let text): text == "NaN"
        default: false
        }
    }

    static func spatialReference(_ value: ParsedJSON) throws -> SpatialReference {
        guard case .object(let members) = value else {
            throw GeometryError(
                .invalidGeometry, "a spatialReference must be an object like {\"wkid\":4326}; found \(value.kindDescription)")
        }
        let wkid = try members["wkid"].flatMap { value in
            try inJSONPath(".wkid") { try wellKnownID(value, name: "wkid") }
        }
        let latest = try members["latestWkid"].flatMap { value in
            try inJSONPath(".latestWkid") { try wellKnownID(value, name: "latestWkid") }
        }
        guard let id = wkid ?? latest else {
            if members["wkt"] != nil || members["wkt2"] != nil {
                throw GeometryError(
                    .unsupportedSpatialReference,
                    "the spatial reference is given only as WKT; FeatureGeometry identifies spatial references by "
                        + "WKID, so request the features with outSR=4326 or outSR=3857")
            }
            throw GeometryError(.invalidGeometry, "a spatialReference needs a wkid (or latestWkid)")
        }
        return SpatialReference(wkid: id, latestWkid: wkid == nil ? nil : latest)
    }

    private static func wellKnownID(_ value: ParsedJSON, name: String) throws -> Int? {
        switch value {
        case .null:
            return nil
        case .number(let number) where number.rounded() == number && abs(number) < 1e9:
            return Int(number)
        default:
            throw GeometryError(.invalidGeometry, "\(name) must be an integer; found \(value.kindDescription)")
        }
    }
}
