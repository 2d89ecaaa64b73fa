import FeatureGeometry
import FeatureQuerySupport

/// Moves coordinates between the layer's spatial reference and the one asked for (`outSR`, GeoJSON's
/// WGS 84): only WGS 84 and Web Mercator are served.
enum CoordinateTransform: Sendable {
    case identity, toWebMercator, toWGS84

    init(from source: SpatialReference, to target: SpatialReference) {
        if source == target {
            self = .identity
        } else if target.isWebMercator {
            self = .toWebMercator
        } else {
            self = .toWGS84
        }
    }

    @inline(__always)
    func apply(_ x: Double, _ y: Double) -> Position {
        switch self {
        case .identity: Position(x, y)
        case .toWebMercator: WebMercator.project(longitude: x, latitude: y)
        case .toWGS84: WebMercator.unproject(x: x, y: y)
        }
    }
}

/// Geometry writers for query responses: Esri JSON (`{"rings":...}`) and GeoJSON, straight from the
/// stores. Parcels in their own spatial reference are written from whole centimeters without any
/// floating-point formatting, the hot path of small-extent queries.
extension JSONWriter {
    mutating func esriGeometry(_ source: FeatureSource, _ index: Int, _ transform: CoordinateTransform) {
        switch source {
        case .parcels(let store, _):
            store.writeRing(index, transform, to: &self)
        case .generic(let store):
            esriGeometry(store.geometries[index], transform)
        case .table, .none:
            raw("null")
        }
    }

    mutating func esriGeometry(_ geometry: Geometry, _ transform: CoordinateTransform) {
        switch geometry {
        case .point(let point):
            let p = transform.apply(point.x, point.y)
            raw("{\"x\":")
            double(p.x)
            raw(",\"y\":")
            double(p.y)
            raw("}")
        case .multipoint(let multipoint):
            raw("{\"points\":")
            positions(multipoint.points, transform)
            raw("}")
        case .polyline(let polyline):
            raw("{\"paths\":")
            positionLists(polyline.paths, transform)
            raw("}")
        case .polygon(let polygon):
            raw("{\"rings\":")
            positionLists(polygon.rings, transform)
            raw("}")
        case .envelope(let envelope):
            let low = transform.apply(envelope.xmin, envelope.ymin)
            let high = transform.apply(envelope.xmax, envelope.ymax)
            raw("{\"xmin\":")
            double(low.x)
            raw(",\"ymin\":")
            double(low.y)
            raw(",\"xmax\":")
            double(high.x)
            raw(",\"ymax\":")
            double(high.y)
            raw("}")
        }
    }

    /// A GeoJSON geometry in WGS 84 (RFC 7946: exterior rings counter-clockwise).
    mutating func geoJSONGeometry(_ source: FeatureSource, _ index: Int, layerReference: SpatialReference) {
        switch source {
        case .parcels(let store, _):
            let ring = store.ring(index)
            let transform = CoordinateTransform(from: layerReference, to: .wgs84)
            raw("{\"type\":\"Polygon\",\"coordinates\":[[")
            for position in stride(from: ring.count - 1, through: 0, by: -1) {
                let (x, y) = ring.vertex(position)
                let point = transform.apply(Double(x) / 100, Double(y) / 100)
                if position < ring.count - 1 { raw(",") }
                raw("[")
                double(point.x)
                raw(",")
                double(point.y)
                raw("]")
            }
            raw("]]}")
        case .generic(let store):
            var text = ""
            do {
                try GeoJSON.write(store.geometries[index], to: &text)
                rawText(text)
            } catch {
                raw("null")
            }
        case .table, .none:
            raw("null")
        }
    }

    private mutating func positions(_ list: [Position], _ transform: CoordinateTransform) {
        raw("[")
        for (position, vertex) in list.enumerated() {
            if position > 0 { raw(",") }
            let p = transform.apply(vertex.x, vertex.y)
            raw("[")
            double(p.x)
            raw(",")
            double(p.y)
            raw("]")
        }
        raw("]")
    }

    private mutating func positionLists(_ lists: [[Position]], _ transform: CoordinateTransform) {
        raw("[")
        for (position, list) in lists.enumerated() {
            if position > 0 { raw(",") }
            positions(list, transform)
        }
        raw("]")
    }
}

extension ParcelStore {
    /// `{"rings":[[[x,y],...]]}`: in the layer's spatial reference straight from whole centimeters.
    func writeRing(_ index: Int, _ transform: CoordinateTransform, to json: inout JSONWriter) {
        let ring = ring(index)
        json.raw("{\"rings\":[[")
        for position in 0..<ring.count {
            let (x, y) = ring.vertex(position)
            if position > 0 { json.byte(UInt8(ascii: ",")) }
            json.byte(UInt8(ascii: "["))
            if case .identity = transform {
                json.centimeters(x)
                json.byte(UInt8(ascii: ","))
                json.centimeters(y)
            } else {
                let point = transform.apply(Double(x) / 100, Double(y) / 100)
                json.double(point.x)
                json.byte(UInt8(ascii: ","))
                json.double(point.y)
            }
            json.byte(UInt8(ascii: "]"))
        }
        json.raw("]]}")
    }
}
