import FeatureGeometry
import FeatureQuerySupport
import Testing

/// Table tests from the examples of the ArcGIS REST API "Geometry objects" page.
@Suite("Esri JSON: the REST API's geometry object examples")
struct EsriJSONExampleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var expected: Geometry
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(
            name: "point",
            json: #"{"x" : -118.15, "y" : 33.80, "spatialReference" : {"wkid" : 4326}}"#,
            expected: .point(Point(x: -118.15, y: 33.80, spatialReference: .wgs84))),
        Example(
            name: "point with z and m (dropped)",
            json: #"{"x" : -118.15, "y" : 33.80, "z" : 10.0, "m" : 5.5, "spatialReference" : {"wkid" : 4326}}"#,
            expected: .point(Point(x: -118.15, y: 33.80, spatialReference: .wgs84))),
        Example(
            name: "multipoint",
            json: #"""
                {"points" : [[-97.06138,32.837],[-97.06133,32.836],[-97.06124,32.834],[-97.06127,32.832]],
                 "spatialReference" : {"wkid" : 4326}}
                """#,
            expected: .multipoint(Multipoint(
                points: [position(-97.06138, 32.837), position(-97.06133, 32.836), position(-97.06124, 32.834),
                         position(-97.06127, 32.832)],
                spatialReference: .wgs84))),
        Example(
            name: "multipoint with hasZ",
            json: #"{"hasZ" : true, "points" : [[-97.06138,32.837,35.0],[-97.06133,32.836,35.1]], "spatialReference" : {"wkid" : 4326}}"#,
            expected: .multipoint(Multipoint(
                points: [position(-97.06138, 32.837), position(-97.06133, 32.836)], spatialReference: .wgs84))),
        Example(
            name: "polyline",
            json: #"""
                {"paths" : [[[-97.06138,32.837],[-97.06133,32.836],[-97.06124,32.834],[-97.06127,32.832]],
                            [[-97.06326,32.759],[-97.06298,32.755]]],
                 "spatialReference" : {"wkid" : 4326}}
                """#,
            expected: .polyline(Polyline(
                paths: [
                    [position(-97.06138, 32.837), position(-97.06133, 32.836), position(-97.06124, 32.834),
                     position(-97.06127, 32.832)],
                    [position(-97.06326, 32.759), position(-97.06298, 32.755)],
                ],
                spatialReference: .wgs84))),
        Example(
            name: "polyline with hasM",
            json: #"{"hasM" : true, "paths" : [[[-97.06138,32.837,5],[-97.06133,32.836,6],[-97.06124,32.834,null]]], "spatialReference" : {"wkid" : 4326}}"#,
            expected: .polyline(Polyline(
                paths: [[position(-97.06138, 32.837), position(-97.06133, 32.836), position(-97.06124, 32.834)]],
                spatialReference: .wgs84))),
        Example(
            name: "polygon (two rings, as the page shows it)",
            json: #"""
                {"rings" : [[[-97.06138,32.837],[-97.06133,32.836],[-97.06124,32.834],[-97.06127,32.832],[-97.06138,32.837]],
                            [[-97.06326,32.759],[-97.06298,32.755],[-97.06153,32.749],[-97.06326,32.759]]],
                 "spatialReference" : {"wkid" : 4326}}
                """#,
            expected: .polygon(Polygon(
                rings: [
                    [position(-97.06138, 32.837), position(-97.06133, 32.836), position(-97.06124, 32.834),
                     position(-97.06127, 32.832), position(-97.06138, 32.837)],
                    [position(-97.06326, 32.759), position(-97.06298, 32.755), position(-97.06153, 32.749),
                     position(-97.06326, 32.759)],
                ],
                spatialReference: .wgs84))),
        Example(
            name: "polygon with a hole (clockwise outer, counter-clockwise hole)",
            json: #"""
                {"rings" : [[[-97.07,32.83],[-97.07,32.85],[-97.05,32.85],[-97.05,32.83],[-97.07,32.83]],
                            [[-97.065,32.835],[-97.055,32.835],[-97.055,32.845],[-97.065,32.845],[-97.065,32.835]]],
                 "spatialReference" : {"wkid" : 102100, "latestWkid" : 3857}}
                """#,
            expected: .polygon(Polygon(
                rings: [
                    ring([(-97.07, 32.83), (-97.07, 32.85), (-97.05, 32.85), (-97.05, 32.83)]),
                    ring([(-97.065, 32.835), (-97.055, 32.835), (-97.055, 32.845), (-97.065, 32.845)]),
                ],
                spatialReference: .webMercator))),
        Example(
            name: "envelope",
            json: #"{"xmin" : -109.55, "ymin" : 25.76, "xmax" : -86.39, "ymax" : 49.94, "spatialReference" : {"wkid" : 4326}}"#,
            expected: .envelope(Envelope(xmin: -109.55, ymin: 25.76, xmax: -86.39, ymax: 49.94, spatialReference: .wgs84))),
        Example(
            name: "envelope with z and m ranges",
            json: #"{"xmin" : -109.55, "ymin" : 25.76, "xmax" : -86.39, "ymax" : 49.94, "zmin" : 1, "zmax" : 2, "mmin" : 3, "mmax" : 4}"#,
            expected: .envelope(Envelope(xmin: -109.55, ymin: 25.76, xmax: -86.39, ymax: 49.94))),
    ]

    @Test(arguments: examples)
    func decodes(_ example: Example) throws {
        let geometry = try EsriJSON.decode(example.json)
        #expect(geometry == example.expected)
        #expect(geometry.spatialReference?.wkid == example.expected.spatialReference?.wkid)
    }

    @Test(arguments: examples)
    func reencodesToTheSameGeometry(_ example: Example) throws {
        let text = try EsriJSON.encode(example.expected)
        #expect(try EsriJSON.decode(text) == example.expected)
    }

    @Test func encodesCompactTextInTheDocumentedShape() throws {
        #expect(try EsriJSON.encode(.point(Point(x: -118.15, y: 33.8, spatialReference: .wgs84)))
            == #"{"x":-118.15,"y":33.8,"spatialReference":{"wkid":4326}}"#)
        #expect(try EsriJSON.encode(.envelope(Envelope(xmin: 1, ymin: 2, xmax: 3, ymax: 4)))
            == #"{"xmin":1,"ymin":2,"xmax":3,"ymax":4}"#)
        #expect(try EsriJSON.encode(line((0, 0), (1e-05, 2.5))) == #"{"paths":[[[0,0],[1e-05,2.5]]]}"#)
        #expect(EsriJSON.encode(SpatialReference.webMercator) == #"{"wkid":102100,"latestWkid":3857}"#)
    }

    @Test func emptyPointsAndEnvelopesAreTypedErrors() {
        for json in [#"{"x" : null, "spatialReference" : {"wkid" : 4326}}"#,
                     #"{"x" : "NaN", "y" : 22.2, "spatialReference" : {"wkid" : 4326}}"#,
                     #"{"xmin" : null}"#, #"{"xmin" : "NaN", "ymin" : 0, "xmax" : 1, "ymax" : 1}"#] {
            expectGeometryError(.emptyGeometry) { _ = try EsriJSON.decode(json) }
        }
    }

    @Test func emptyMultiGeometriesDecode() throws {
        #expect(try EsriJSON.decode(#"{"points":[]}"#).isEmpty)
        #expect(try EsriJSON.decode(#"{"paths":[]}"#).isEmpty)
        #expect(try EsriJSON.decode(#"{"rings":[]}"#).isEmpty)
    }

    @Test func unclosedRingsAreClosedAndAllCounterClockwiseRingsTurned() throws {
        let geometry = try EsriJSON.decode(#"{"rings":[[[0,0],[10,0],[10,10],[0,10]]]}"#)
        guard case .polygon(let polygon) = geometry else { Issue.record("not a polygon"); return }
        #expect(polygon.rings[0].count == 5)
        #expect(polygon.rings[0].first == polygon.rings[0].last)
        #expect(polygon.signedArea == -100)  // turned clockwise: an outer ring in the Esri convention
    }

    @Test func spatialReferences() throws {
        let webMercator = try EsriJSON.decodeSpatialReference(ParsedJSON(parsing: #"{"wkid":102100,"latestWkid":3857}"#))
        #expect(webMercator.wkid == 102100 && webMercator.latestWkid == 3857 && webMercator.isWebMercator)
        let latestOnly = try EsriJSON.decodeSpatialReference(ParsedJSON(parsing: #"{"latestWkid":2229}"#))
        #expect(latestOnly == SpatialReference(wkid: 2229))
        expectGeometryError(.unsupportedSpatialReference) {
            _ = try EsriJSON.decodeSpatialReference(ParsedJSON(parsing: #"{"wkt":"GEOGCS[\"GCS_WGS_1984\"]"}"#))
        }
        expectGeometryError(.invalidGeometry) { _ = try EsriJSON.decodeSpatialReference(ParsedJSON(parsing: #"{"wkid":43.5}"#)) }
        #expect(try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":null}"#).spatialReference == nil)
    }

    @Test func responseLevelSpatialReferenceFillsIn() throws {
        let bare = try EsriJSON.decode(#"{"x":1,"y":2}"#, defaultSpatialReference: .webMercator)
        #expect(bare.spatialReference == .webMercator)
        let own = try EsriJSON.decode(#"{"x":1,"y":2,"spatialReference":{"wkid":4326}}"#, defaultSpatialReference: .webMercator)
        #expect(own.spatialReference == .wgs84)
    }

    @Test func curvesAndGeoJSONAreNamedInTheError() {
        expectGeometryError(.unsupportedGeometryType) {
            _ = try EsriJSON.decode(#"{"curvePaths":[[[0,0],{"c":[[3,3],[1,4]]}]]}"#)
        }
        let error = expectGeometryError(.invalidGeometry) { _ = try EsriJSON.decode(#"{"type":"Point","coordinates":[1,2]}"#) }
        #expect(error?.message.contains("GeoJSON") == true)
    }

    @Test func geometryTypeNames() throws {
        #expect(try GeometryType(esriName: "esriGeometryPolygon") == .polygon)
        #expect(GeometryType.allCases.map(\.esriName) == [
            "esriGeometryPoint", "esriGeometryMultipoint", "esriGeometryPolyline", "esriGeometryPolygon",
            "esriGeometryEnvelope",
        ])
        expectGeometryError(.unsupportedGeometryType) { _ = try GeometryType(esriName: "esriGeometryMultiPatch") }
        #expect(Geometry.envelope(Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1)).type == .envelope)
    }
}
