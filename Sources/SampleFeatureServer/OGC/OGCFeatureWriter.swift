import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage

/// Writes GeoJSON features of a collection in the requested CRS and axis order: `id` is the OBJECTID as a
/// JSON integer (as the ArcGIS face's), properties are every field (dates as RFC 3339 strings), exterior
/// rings counter-clockwise (RFC 7946).
enum OGCFeatureWriter {
    /// Writes one feature; with `close` false the feature object is left open for more members.
    /// `properties` limits the properties to those fields (the `properties` parameter); `skipGeometry`
    /// writes `"geometry":null`.
    static func feature(
        _ collection: OGCCollection, _ index: Int, crs: OGCCRS, to json: inout JSONWriter, close: Bool = true,
        properties: [Int]? = nil, skipGeometry: Bool = false
    ) {
        json.raw("{\"type\":\"Feature\",\"id\":")
        json.integer(index + 1)
        json.raw(",\"geometry\":")
        if skipGeometry { json.raw("null") } else { geometry(collection.source, index, crs: crs, to: &json) }
        json.raw(",\"properties\":{")
        for (number, field) in (properties ?? Array(collection.fields.indices)).enumerated() {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            json.raw(collection.propertyKeys[field])
            switch collection.source.value(field, index) {
            case .date(let milliseconds): json.string(RFC3339.string(fromMilliseconds: milliseconds))
            case .null: json.raw("null")
            case .integer(let number): json.integer(Int(number))
            case .double(let number): json.double(number)
            case .string(let text): json.string(text)
            }
        }
        json.raw("}")
        if close { json.raw("}") }
    }

    static func geometry(_ source: FeatureSource, _ index: Int, crs: OGCCRS, to json: inout JSONWriter) {
        switch source {
        case .parcels(let store, _):
            let ring = store.ring(index)
            json.raw("{\"type\":\"Polygon\",\"coordinates\":[[")
            for position in stride(from: ring.count - 1, through: 0, by: -1) {
                let (x, y) = ring.vertex(position)
                if position < ring.count - 1 { json.byte(UInt8(ascii: ",")) }
                json.byte(UInt8(ascii: "["))
                if crs == .epsg3857 {
                    json.centimeters(x)
                    json.byte(UInt8(ascii: ","))
                    json.centimeters(y)
                } else {
                    let point = WebMercator.unproject(x: Double(x) / 100, y: Double(y) / 100)
                    let (a, b) = crs.output(longitude: point.x, latitude: point.y)
                    json.double(a)
                    json.byte(UInt8(ascii: ","))
                    json.double(b)
                }
                json.byte(UInt8(ascii: "]"))
            }
            json.raw("]]}")
        case .generic(let store):
            geometry(store.geometries[index], crs: crs, to: &json)
        case .table, .none:
            json.raw("null")
        }
    }

    /// A geometry in `crs`: stored in WGS 84 (the USA layers) or Web Mercator (the parcel sales), written in
    /// WGS 84 positions converted by `crs`.
    static func geometry(_ geometry: Geometry, crs: OGCCRS, to json: inout JSONWriter) {
        if geometry.spatialReference?.isWebMercator == true, let wgs84 = try? geometry.projected(to: .wgs84) {
            self.geometry(wgs84, crs: crs, to: &json)
            return
        }
        switch geometry {
        case .point(let point):
            json.raw("{\"type\":\"Point\",\"coordinates\":")
            position(point.position, crs, &json)
            json.raw("}")
        case .multipoint(let multipoint):
            json.raw("{\"type\":\"MultiPoint\",\"coordinates\":")
            positions(multipoint.points, crs, reversed: false, &json)
            json.raw("}")
        case .polyline(let polyline) where polyline.paths.count == 1:
            json.raw("{\"type\":\"LineString\",\"coordinates\":")
            positions(polyline.paths[0], crs, reversed: false, &json)
            json.raw("}")
        case .polyline(let polyline):
            json.raw("{\"type\":\"MultiLineString\",\"coordinates\":[")
            for (number, path) in polyline.paths.enumerated() {
                if number > 0 { json.byte(UInt8(ascii: ",")) }
                positions(path, crs, reversed: false, &json)
            }
            json.raw("]}")
        case .polygon(let polygon):
            // Esri rings: exterior clockwise; GeoJSON wants it counter-clockwise, holes the other way.
            json.raw("{\"type\":\"Polygon\",\"coordinates\":[")
            for (number, ring) in polygon.rings.enumerated() {
                if number > 0 { json.byte(UInt8(ascii: ",")) }
                positions(ring, crs, reversed: true, &json)
            }
            json.raw("]}")
        case .envelope(let box):
            self.geometry(.polygon(Polygon(box)), crs: crs, to: &json)
        }
    }

    private static func position(_ vertex: Position, _ crs: OGCCRS, _ json: inout JSONWriter) {
        let (a, b) = crs.output(longitude: vertex.x, latitude: vertex.y)
        json.byte(UInt8(ascii: "["))
        json.double(a)
        json.byte(UInt8(ascii: ","))
        json.double(b)
        json.byte(UInt8(ascii: "]"))
    }

    private static func positions(_ list: [Position], _ crs: OGCCRS, reversed: Bool, _ json: inout JSONWriter) {
        json.byte(UInt8(ascii: "["))
        for number in list.indices {
            if number > 0 { json.byte(UInt8(ascii: ",")) }
            position(list[reversed ? list.count - 1 - number : number], crs, &json)
        }
        json.byte(UInt8(ascii: "]"))
    }
}
