import FeatureGeometry
import FeatureQuerySupport
import Testing

/// Table tests from RFC 7946, Appendix A (and the bbox examples of section 5).
@Suite("GeoJSON: RFC 7946 examples")
struct GeoJSONExampleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        var expected: Geometry
        var testDescription: String { name }
    }

    static let exterior = [(100.0, 0.0), (101.0, 0.0), (101.0, 1.0), (100.0, 1.0)]

    static let examples: [Example] = [
        Example(
            name: "A.1 Point", json: #"{"type": "Point", "coordinates": [100.0, 0.0]}"#,
            expected: .point(Point(x: 100, y: 0, spatialReference: .wgs84))),
        Example(
            name: "A.2 LineString", json: #"{"type": "LineString", "coordinates": [[100.0, 0.0], [101.0, 1.0]]}"#,
            expected: .polyline(Polyline(paths: [[position(100, 0), position(101, 1)]], spatialReference: .wgs84))),
        Example(
            name: "A.3 Polygon without holes",
            json: #"{"type": "Polygon", "coordinates": [[[100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0]]]}"#,
            expected: .polygon(Polygon(exterior: ring(exterior), spatialReference: .wgs84))),
        Example(
            name: "A.3 Polygon with holes",
            json: #"""
                {"type": "Polygon", "coordinates": [
                    [[100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0]],
                    [[100.8, 0.8], [100.8, 0.2], [100.2, 0.2], [100.2, 0.8], [100.8, 0.8]]]}
                """#,
            expected: .polygon(Polygon(
                exterior: ring(exterior), holes: [ring([(100.8, 0.8), (100.8, 0.2), (100.2, 0.2), (100.2, 0.8)])],
                spatialReference: .wgs84))),
        Example(
            name: "A.4 MultiPoint", json: #"{"type": "MultiPoint", "coordinates": [[100.0, 0.0], [101.0, 1.0]]}"#,
            expected: .multipoint(Multipoint(points: [position(100, 0), position(101, 1)], spatialReference: .wgs84))),
        Example(
            name: "A.5 MultiLineString",
            json: #"{"type": "MultiLineString", "coordinates": [[[100.0, 0.0], [101.0, 1.0]], [[102.0, 2.0], [103.0, 3.0]]]}"#,
            expected: .polyline(Polyline(
                paths: [[position(100, 0), position(101, 1)], [position(102, 2), position(103, 3)]],
                spatialReference: .wgs84))),
        Example(
            name: "A.6 MultiPolygon",
            json: #"""
                {"type": "MultiPolygon", "coordinates": [
                    [[[102.0, 2.0], [103.0, 2.0], [103.0, 3.0], [102.0, 3.0], [102.0, 2.0]]],
                    [[[100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0]],
                     [[100.2, 0.2], [100.2, 0.8], [100.8, 0.8], [100.8, 0.2], [100.2, 0.2]]]]}
                """#,
            expected: .polygon(Polygon(
                rings: [
                    ring([(102, 2), (102, 3), (103, 3), (103, 2)]),
                    ring([(100, 0), (100, 1), (101, 1), (101, 0)]),
                    ring([(100.2, 0.2), (100.8, 0.2), (100.8, 0.8), (100.2, 0.8)]),
                ],
                spatialReference: .wgs84))),
    ]

    @Test(arguments: examples)
    func decodes(_ example: Example) throws {
        #expect(try GeoJSON.decode(example.json) == example.expected)
    }

    /// Encoding gives back the RFC's own text (compared as JSON values: `100` reads as `100.0`), winding
    /// included: the examples follow the right-hand rule.
    @Test(arguments: examples)
    func encodesToTheRFCText(_ example: Example) throws {
        let encoded = try GeoJSON.encode(example.expected)
        #expect(try ParsedJSON(parsing: encoded) == ParsedJSON(parsing: example.json))
    }

    @Test func decodedPolygonsFollowTheEsriConvention() throws {
        guard case .polygon(let polygon) = try GeoJSON.decode(Self.examples[3].json) else {
            Issue.record("not a polygon")
            return
        }
        #expect(polygon.rings.count == 2)
        #expect(polygon.signedArea < 0)  // clockwise outer ring outweighs its counter-clockwise hole
        #expect(abs(abs(polygon.signedArea) - (1 - 0.36)) < 1e-9)
    }

    @Test func windingOfTheInputDoesNotMatter() throws {
        let rightHand = #"{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,2],[2,2],[2,1],[1,1]]]}"#
        let leftHand = #"{"type":"Polygon","coordinates":[[[0,0],[0,4],[4,4],[4,0],[0,0]],[[1,1],[2,1],[2,2],[1,2],[1,1]]]}"#
        let a = try GeoJSON.decode(rightHand)
        let b = try GeoJSON.decode(leftHand)
        #expect(a.within(b) && b.within(a))
        #expect(try ParsedJSON(parsing: GeoJSON.encode(b)) == ParsedJSON(parsing: rightHand))
    }

    @Test func geometryCollectionA7MixesTypesAndIsATypedError() {
        let a7 = #"""
            {"type": "GeometryCollection", "geometries": [
                {"type": "Point", "coordinates": [100.0, 0.0]},
                {"type": "LineString", "coordinates": [[101.0, 0.0], [102.0, 1.0]]}]}
            """#
        let error = expectGeometryError(.unsupportedGeometryType) { _ = try GeoJSON.decode(a7) }
        #expect(error?.message.contains("lines and points") == true)
    }

    @Test func geometryCollectionsOfOneKindMapToTheMultiGeometry() throws {
        let points = #"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"MultiPoint","coordinates":[[3,4]]}]}"#
        #expect(try GeoJSON.decode(points) == .multipoint(Multipoint(points: [position(1, 2), position(3, 4)], spatialReference: .wgs84)))
        let one = #"{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#
        #expect(try GeoJSON.decode(one).type == .polyline)
        expectGeometryError(.emptyGeometry) { _ = try GeoJSON.decode(#"{"type":"GeometryCollection","geometries":[]}"#) }
    }

    @Test func boundingBoxes() throws {
        let box = try GeoJSON.decodeBoundingBox(ParsedJSON(parsing: "[-10.0, -10.0, 10.0, 10.0]"))
        #expect(box == Envelope(xmin: -10, ymin: -10, xmax: 10, ymax: 10, spatialReference: .wgs84))
        let poles = try GeoJSON.decodeBoundingBox(ParsedJSON(parsing: "[-180.0, 85.0, 180.0, 90.0]"))
        #expect(poles.ymax == 90)
        let withZ = try GeoJSON.decodeBoundingBox(ParsedJSON(parsing: "[100.0, 0.0, -100.0, 105.0, 1.0, 0.0]"))
        #expect(withZ == Envelope(xmin: 100, ymin: 0, xmax: 105, ymax: 1, spatialReference: .wgs84))
        expectGeometryError(.invalidGeometry) {  // RFC 7946 §5.2: crossing the antimeridian
            _ = try GeoJSON.decodeBoundingBox(ParsedJSON(parsing: "[177.0, -20.0, -178.0, -16.0]"))
        }
        #expect(try GeoJSON.encode(.polyline(Polyline(paths: [[position(1, 2), position(3, 0)]])),
                                   options: .init(includeBoundingBox: true))
            == #"{"type":"LineString","bbox":[1,0,3,2],"coordinates":[[1,2],[3,0]]}"#)
    }

    @Test func zIsDroppedAndFeaturesAreNamed() throws {
        #expect(try GeoJSON.decode(#"{"type":"Point","coordinates":[1,2,3]}"#) == point(1, 2).withWGS84)
        expectGeometryError(.unsupportedGeometryType) {
            _ = try GeoJSON.decode(#"{"type":"Feature","geometry":null,"properties":{}}"#)
        }
        expectGeometryError(.emptyGeometry) { _ = try GeoJSON.decode(#"{"type":"Point","coordinates":[]}"#) }
    }

    @Test func encodingProjectsWebMercatorAndEnvelopesBecomePolygons() throws {
        let mercator = Geometry.point(Point(WebMercator.project(longitude: -118.805, latitude: 34.03),
                                            spatialReference: .webMercator))
        let decoded = try GeoJSON.decode(GeoJSON.encode(mercator))
        guard case .point(let point) = decoded else { Issue.record("not a point"); return }
        #expect(abs(point.x - -118.805) < 1e-9 && abs(point.y - 34.03) < 1e-9)
        let raw = try GeoJSON.encode(mercator, options: .init(projectToWGS84: false))
        #expect(raw.contains("-13225312.10369"))
        expectGeometryError(.unsupportedSpatialReference) {
            _ = try GeoJSON.encode(.point(Point(x: 1, y: 2, spatialReference: SpatialReference(wkid: 2229))))
        }
        #expect(try GeoJSON.encode(.envelope(Envelope(xmin: 0, ymin: 0, xmax: 2, ymax: 1)))
            == #"{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,1],[0,1],[0,0]]]}"#)
    }

    @Test func theEsriPageTwoRingPolygonBecomesAMultiPolygon() throws {
        let esri = #"{"rings":[[[-97.06138,32.837],[-97.06133,32.836],[-97.06124,32.834],[-97.06127,32.832],[-97.06138,32.837]],[[-97.06326,32.759],[-97.06298,32.755],[-97.06153,32.749],[-97.06326,32.759]]]}"#
        let text = try GeoJSON.encode(EsriJSON.decode(esri))
        #expect(text.hasPrefix(#"{"type":"MultiPolygon""#))
    }
}

extension Geometry {
    var withWGS84: Geometry {
        var copy = self
        copy.spatialReference = .wgs84
        return copy
    }
}
