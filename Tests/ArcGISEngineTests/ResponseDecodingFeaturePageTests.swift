import FeatureGeometry
import Testing
import FeatureService

@testable import ArcGISEngine
import FeatureQuerySupport

@Suite("Feature pages")
struct ResponseDecodingFeaturePageTests {
    let layer = DecodingFixture.layerURL

    func page(_ text: String, objectIdField: String = "OBJECTID") throws(FeatureServiceError) -> FeaturePage {
        try ArcGISResponse.featurePage(bodyBytes(text), layer: layer, objectIdField: objectIdField)
    }

    @Test("points: attributes as sent, the page's spatial reference as default, empty points as nil")
    func points() throws {
        let result = try page(DecodingFixture.pointPage)
        #expect(result.exceededTransferLimit)
        #expect(result.objectIdFieldName == "OBJECTID")
        #expect(result.fieldOrder == ["OBJECTID", "NAME", "POP"])
        #expect(result.spatialReference == .wgs84)
        #expect(result.features.map(\.objectId) == [1, 2, 3])
        let first = result.features[0]
        #expect(first.attributes["NAME"] == .string("Los Angeles"))
        #expect(first.attributes["POP"] == .number(3_898_747))
        guard case .point(let point)? = first.geometry else {
            Issue.record("expected a point, got \(String(describing: first.geometry))")
            return
        }
        #expect(point.x == -118.24 && point.y == 34.05)
        #expect(point.spatialReference == .wgs84)
        // A geometry's own spatial reference wins over the page's.
        #expect(result.features[1].geometry?.spatialReference == .webMercator)
        #expect(result.features[1].attributes["NAME"] == .string("Pasadena é"))
        #expect(result.features[1].attributes["POP"] == .null)
        #expect(result.features[2].geometry == nil)
    }

    @Test("polygons, null and absent geometries")
    func polygons() throws {
        let result = try page(DecodingFixture.polygonPage)
        #expect(!result.exceededTransferLimit)
        #expect(result.fieldOrder == ["OBJECTID", "APN"])
        #expect(result.features.map(\.objectId) == [10, 11, 12])
        guard case .polygon(let polygon)? = result.features[0].geometry else {
            Issue.record("expected a polygon")
            return
        }
        #expect(polygon.rings.count == 2)
        #expect(polygon.spatialReference == .webMercator)
        #expect(result.features[1].geometry == nil)
        #expect(result.features[2].geometry == nil)
    }

    @Test("an empty page, with and without the transfer flag")
    func emptyPage() throws {
        let empty = try page(#"{"objectIdFieldName":"OBJECTID","features":[],"exceededTransferLimit":true}"#)
        #expect(empty.features.isEmpty)
        #expect(empty.exceededTransferLimit)
        #expect(empty.spatialReference == nil)
        #expect(try page(#"{"features":[]}"#).exceededTransferLimit == false)
    }

    @Test("the object-id field matches case-insensitively, or by the response's objectIdFieldName")
    func objectIdFieldCase() throws {
        let lower = try page(#"{"features":[{"attributes":{"objectid":7}},{"attributes":{"objectid":8}}]}"#)
        #expect(lower.features.map(\.objectId) == [7, 8])
        let named = try page(#"{"objectIdFieldName":"FID","features":[{"attributes":{"FID":3,"OBJECTID_1":9}}]}"#)
        #expect(named.features.map(\.objectId) == [3])
        // Features can disagree on the case; each is still found.
        let mixed = try page(#"{"features":[{"attributes":{"ObjectId":1}},{"attributes":{"OBJECTID":2}}]}"#)
        #expect(mixed.features.map(\.objectId) == [1, 2])
        #expect(try page(#"{"features":[{"attributes":{"OBJECTID":4.0}}]}"#).features[0].objectId == 4)
    }

    @Test("a feature without its object id is missingObjectID, naming the layer and the field")
    func missingObjectID() {
        for body in [
            #"{"features":[{"attributes":{"OBJECTID":1}},{"attributes":{"NAME":"x"}}]}"#,
            #"{"features":[{"attributes":{"OBJECTID":null}}]}"#,
            #"{"features":[{"geometry":{"x":1,"y":2}}]}"#,
            #"{"features":[{"attributes":null}]}"#,
        ] {
            let error = requireDecodingError { () throws(FeatureServiceError) in try page(body) }
            #expect(error.code == .missingObjectID)
            #expect(error.message.contains(layer))
            #expect(error.message.contains("\"OBJECTID\""))
            #expect(!error.isRetryable)
        }
        let withName = requireDecodingError { () throws(FeatureServiceError) in
            try page(#"{"objectIdFieldName":"FID","features":[{"attributes":{"NAME":"x"}}]}"#)
        }
        #expect(withName.message.contains("\"FID\""))
    }

    @Test(
        "object ids that are not integers, and features of the wrong shape, are malformed",
        arguments: [
            (#"{"features":[{"attributes":{"OBJECTID":1.5}}]}"#, "not an integer"),
            (#"{"features":[{"attributes":{"OBJECTID":"12"}}]}"#, "not an integer"),
            (#"{"features":[{"attributes":{"OBJECTID":1e19}}]}"#, "not an integer"),
            (#"{"features":[{"attributes":{"OBJECTID":true}}]}"#, "not an integer"),
            (#"{"features":[7]}"#, "not an object"),
            (#"{"features":[{"attributes":[1,2]}]}"#, "not an object"),
            (#"{"features":[{"attributes":{"OBJECTID":1},"geometry":{"x":"a","y":2}}]}"#, "geometry that cannot be read"),
            (#"{"features":[{"attributes":{"OBJECTID":1},"geometry":{"curveRings":[]}}]}"#, "geometry that cannot be read"),
            (#"{"features":[{"attributes":{"OBJECTID":1},"geometry":[1,2]}]}"#, "geometry that cannot be read"),
            (#"{"objectIdFieldName":"OBJECTID","count":3}"#, "no \"features\""),
        ])
    func wrongShapes(body: String, phrase: String) {
        let error = requireDecodingError { () throws(FeatureServiceError) in try page(body) }
        #expect(error.code == .malformedResponse)
        #expect(!error.isRetryable)
        #expect(error.message.contains(layer))
        #expect(error.message.contains(phrase), "\(error.message)")
    }

    @Test("a GeoJSON page: properties, GeoJSON geometry, the flag under properties")
    func geoJSONPage() throws {
        let result = try page("""
            {"type":"FeatureCollection","properties":{"exceededTransferLimit":true},"features":[
             {"type":"Feature","id":5,"geometry":{"type":"Point","coordinates":[-118.2,34.0]},"properties":{"OBJECTID":5,"NAME":"A"}},
             {"type":"Feature","id":6,"geometry":null,"properties":{"NAME":"B"}}]}
            """)
        #expect(result.exceededTransferLimit)
        #expect(result.features.map(\.objectId) == [5, 6])
        #expect(result.features[0].attributes["NAME"] == .string("A"))
        #expect(result.features[0].geometry?.spatialReference == .wgs84)
        #expect(result.features[1].geometry == nil)
    }

    @Test("a geometry with more vertices than allowed is limitExceeded")
    func geometryLimit() {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.featurePage(
                bodyBytes(DecodingFixture.polygonPage), layer: layer, objectIdField: "OBJECTID", limits: .init(maxPositions: 3))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains(layer))
    }
}
