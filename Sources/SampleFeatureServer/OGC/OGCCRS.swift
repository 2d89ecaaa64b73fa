import FeatureGeometry

/// The coordinate reference systems the OGC face serves (Part 2): every collection lists all three.
enum OGCCRS: String, CaseIterable, Sendable, Hashable {
    /// WGS 84 longitude/latitude: the default, and GeoJSON's.
    case crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"
    /// WGS 84 with the EPSG axis order: latitude first.
    case epsg4326 = "http://www.opengis.net/def/crs/EPSG/0/4326"
    /// Web Mercator, metres (the parcels' storage CRS).
    case epsg3857 = "http://www.opengis.net/def/crs/EPSG/0/3857"

    var uri: String { rawValue }

    /// Reads a CRS URI, or the short forms `EPSG:4326`, `[EPSG:4326]`, `CRS84`, `OGC:CRS84`; nil otherwise.
    init?(parameter text: String) {
        var value = text.trimmingSpaces()
        if value.hasPrefix("["), value.hasSuffix("]") { value = String(value.dropFirst().dropLast()) }
        if let exact = OGCCRS(rawValue: value) {
            self = exact
            return
        }
        switch value.uppercased() {
        case "CRS84", "OGC:CRS84", "HTTP://WWW.OPENGIS.NET/DEF/CRS/OGC/1.3/CRS84": self = .crs84
        case "EPSG:4326", "HTTP://WWW.OPENGIS.NET/DEF/CRS/EPSG/0/4326": self = .epsg4326
        case "EPSG:3857", "EPSG:900913", "HTTP://WWW.OPENGIS.NET/DEF/CRS/EPSG/0/3857": self = .epsg3857
        default: return nil
        }
    }

    /// A WGS 84 longitude/latitude position in this CRS's coordinates, in its axis order.
    @inline(__always)
    func output(longitude: Double, latitude: Double) -> (Double, Double) {
        switch self {
        case .crs84: return (longitude, latitude)
        case .epsg4326: return (latitude, longitude)
        case .epsg3857:
            let position = WebMercator.project(longitude: longitude, latitude: max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, latitude)))
            return (position.x, position.y)
        }
    }

    /// The longitude/latitude of a position given in this CRS's axis order.
    func lonLat(_ first: Double, _ second: Double) -> Position {
        switch self {
        case .crs84: return Position(first, second)
        case .epsg4326: return Position(second, first)
        case .epsg3857: return WebMercator.unproject(x: first, y: second)
        }
    }

    /// A bbox given in this CRS (`minx,miny,maxx,maxy` in its axis order) as WGS 84 rectangles: two when it
    /// crosses the antimeridian (west edge east of the east edge), one otherwise.
    func lonLatBoxes(_ values: [Double]) -> [Envelope] {
        let low = lonLat(values[0], values[1])
        let high = lonLat(values[2], values[3])
        let south = max(-90, min(low.y, high.y))
        let north = min(90, max(low.y, high.y))
        if self != .epsg3857, low.x > high.x {
            return [
                Envelope(xmin: low.x, ymin: south, xmax: 180, ymax: north, spatialReference: .wgs84),
                Envelope(xmin: -180, ymin: south, xmax: high.x, ymax: north, spatialReference: .wgs84),
            ]
        }
        return [Envelope(xmin: min(low.x, high.x), ymin: south, xmax: max(low.x, high.x), ymax: north, spatialReference: .wgs84)]
    }
}
