/// Any one of the geometries ArcGIS and OGC feature services exchange.
///
/// One feature has one geometry of one type, as in an ArcGIS layer; GeoJSON's multi-types and
/// GeometryCollection map onto these five (see ``GeoJSON``).
package enum Geometry: Hashable, Sendable {
    case point(Point)
    case multipoint(Multipoint)
    case polyline(Polyline)
    case polygon(Polygon)
    case envelope(Envelope)

    /// The Esri geometry type, as `geometryType` names it in query parameters and layer metadata.
    package var type: GeometryType {
        switch self {
        case .point: .point
        case .multipoint: .multipoint
        case .polyline: .polyline
        case .polygon: .polygon
        case .envelope: .envelope
        }
    }

    /// The coordinate system of the coordinates; `nil` when the source did not say.
    package var spatialReference: SpatialReference? {
        get {
            switch self {
            case .point(let point): point.spatialReference
            case .multipoint(let multipoint): multipoint.spatialReference
            case .polyline(let polyline): polyline.spatialReference
            case .polygon(let polygon): polygon.spatialReference
            case .envelope(let envelope): envelope.spatialReference
            }
        }
        set {
            switch self {
            case .point(var point): point.spatialReference = newValue; self = .point(point)
            case .multipoint(var multipoint): multipoint.spatialReference = newValue; self = .multipoint(multipoint)
            case .polyline(var polyline): polyline.spatialReference = newValue; self = .polyline(polyline)
            case .polygon(var polygon): polygon.spatialReference = newValue; self = .polygon(polygon)
            case .envelope(var envelope): envelope.spatialReference = newValue; self = .envelope(envelope)
            }
        }
    }

    /// The bounding rectangle, in the geometry's spatial reference; `nil` for an empty geometry. This is the
    /// box an index stores and the one envelope-intersects compares.
    package var extent: Envelope? {
        switch self {
        case .point(let point):
            return Envelope(xmin: point.x, ymin: point.y, xmax: point.x, ymax: point.y,
                            spatialReference: point.spatialReference)
        case .multipoint(let multipoint):
            return Box(multipoint.points).envelope(multipoint.spatialReference)
        case .polyline(let polyline):
            return Self.box(of: polyline.paths).envelope(polyline.spatialReference)
        case .polygon(let polygon):
            return Self.box(of: polygon.rings).envelope(polygon.spatialReference)
        case .envelope(let envelope):
            return envelope
        }
    }

    /// Whether the geometry has no vertices at all.
    package var isEmpty: Bool {
        switch self {
        case .point, .envelope: false
        case .multipoint(let multipoint): multipoint.points.isEmpty
        case .polyline(let polyline): polyline.paths.allSatisfy(\.isEmpty)
        case .polygon(let polygon): polygon.rings.allSatisfy(\.isEmpty)
        }
    }

    static func box(of parts: [[Position]]) -> Box {
        var box = Box.empty
        for part in parts {
            for position in part { box.expand(toInclude: position) }
        }
        return box
    }
}

/// The five Esri geometry types, named as ArcGIS REST names them (`esriGeometryPolygon`, ...).
package enum GeometryType: String, Hashable, Sendable, CaseIterable {
    case point = "esriGeometryPoint"
    case multipoint = "esriGeometryMultipoint"
    case polyline = "esriGeometryPolyline"
    case polygon = "esriGeometryPolygon"
    case envelope = "esriGeometryEnvelope"

    /// Reads a `geometryType` value from layer metadata or a query; a typed error names the accepted values.
    package init(esriName: String) throws {
        guard let type = GeometryType(rawValue: esriName) else {
            let names = GeometryType.allCases.map(\.rawValue).joined(separator: ", ")
            throw GeometryError(
                .unsupportedGeometryType, "unknown geometry type \"\(esriName)\"; expected one of \(names)")
        }
        self = type
    }

    /// The name ArcGIS REST uses, for the `geometryType` query parameter.
    package var esriName: String { rawValue }
}
