import FeatureService
@testable import ArcGISEngine
import FeatureGeometry
import FeatureQuerySupport
import Testing
import SampleFeatureServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte-level transcoder (`ArcGISResponse.geoJSONPage`) against the reference conversion (`featurePage`
/// then `FeatureGeoJSON.write`): the same features as JSON values, the same errors.
@Suite("GeoJSON page transcoder")
struct GeoJSONTranscoderTests {
    static let layer = DecodingFixture.layerURL

    // MARK: Comparing with the reference

    /// A page reduced to what must agree: ids and features as parsed JSON (numbers as Doubles, members
    /// unordered), and the page-level values.
    struct Comparable: Equatable, CustomStringConvertible {
        var ids: [Int64]
        var features: [ParsedJSON]
        var exceededTransferLimit: Bool
        var objectIdFieldName: String?

        var description: String {
            "ids \(ids), exceeded \(exceededTransferLimit), oidName \(objectIdFieldName ?? "nil")\n"
                + features.map { "\($0)" }.joined(separator: "\n")
        }
    }

    /// What went wrong, as far as callers can tell.
    struct ErrorSummary: Equatable {
        var code: FeatureServiceError.Code
        var isRetryable: Bool
        var message: String

        init(_ error: FeatureServiceError) {
            code = error.code
            isRetryable = error.isRetryable
            message = error.message
        }
    }

    /// The reference conversion, written out here rather than borrowed from the code under test.
    static func reference(
        _ body: [UInt8], objectIdField: String = "OBJECTID", limits: DecodingLimits = .default
    ) -> Result<Comparable, FeatureServiceError> {
        do throws(FeatureServiceError) {
            let page = try ArcGISResponse.featurePage(body, layer: layer, objectIdField: objectIdField, limits: limits)
            var features: [ParsedJSON] = []
            for feature in page.features {
                var text = ""
                try FeatureGeoJSON.write(feature, fieldOrder: page.fieldOrder, layer: layer, to: &text)
                guard let value = try? ParsedJSON(parsing: text) else {
                    Issue.record("the reference wrote JSON that does not parse: \(text)")
                    return .failure(FeatureServiceError(.init("test"), "unparseable reference", layer: layer))
                }
                features.append(value)
            }
            return .success(Comparable(
                ids: page.features.map(\.objectId), features: features, exceededTransferLimit: page.exceededTransferLimit,
                objectIdFieldName: page.objectIdFieldName))
        } catch {
            return .failure(error)
        }
    }

    /// The transcoder's page, each entry parsed on its own (so entry bounds are checked too).
    static func transcoded(
        _ body: [UInt8], objectIdField: String = "OBJECTID", limits: DecodingLimits = .default
    ) -> Result<Comparable, FeatureServiceError> {
        do throws(FeatureServiceError) {
            let page = try ArcGISResponse.geoJSONPage(body, layer: layer, objectIdField: objectIdField, limits: limits)
            var features: [ParsedJSON] = []
            var previousEnd = 0
            for entry in page.entries {
                #expect(entry.start == previousEnd, "entries are back to back")
                previousEnd = entry.end
                guard let value = try? ParsedJSON(parsing: page.bytes[entry.start..<entry.end]) else {
                    Issue.record("the transcoder wrote JSON that does not parse: \(String(decoding: page.bytes[entry.start..<entry.end], as: UTF8.self))")
                    return .failure(FeatureServiceError(.init("test"), "unparseable transcoding", layer: layer))
                }
                #expect(value["id"] == .number(Double(entry.objectId)))
                features.append(value)
            }
            #expect(previousEnd == page.bytes.count)
            return .success(Comparable(
                ids: page.entries.map(\.objectId), features: features, exceededTransferLimit: page.exceededTransferLimit,
                objectIdFieldName: page.objectIdFieldName))
        } catch {
            return .failure(error)
        }
    }

    /// Requires the transcoder and the reference to agree: equal pages, or errors with the same code,
    /// retryability and message. Returns the reference's outcome.
    @discardableResult
    static func expectAgreement(
        _ body: [UInt8], objectIdField: String = "OBJECTID", limits: DecodingLimits = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<Comparable, FeatureServiceError> {
        let expected = reference(body, objectIdField: objectIdField, limits: limits)
        let actual = transcoded(body, objectIdField: objectIdField, limits: limits)
        switch (expected, actual) {
        case (.success(let want), .success(let got)):
            #expect(got == want, "for \(String(decoding: body, as: UTF8.self))", sourceLocation: sourceLocation)
        case (.failure(let want), .failure(let got)):
            #expect(ErrorSummary(got) == ErrorSummary(want), "for \(String(decoding: body, as: UTF8.self))",
                    sourceLocation: sourceLocation)
        default:
            Issue.record("reference \(expected), transcoder \(actual) for \(String(decoding: body, as: UTF8.self))",
                         sourceLocation: sourceLocation)
        }
        return expected
    }

    /// The fast path's own outcome (nil when it handed the page to the reference path).
    static func fastPath(_ text: String, objectIdField: String = "OBJECTID") -> GeoJSONPageTranscoder.Outcome? {
        GeoJSONPageTranscoder.transcode(bodyBytes(text), objectIdField: objectIdField, limits: .default)
    }

    static func page(_ features: String, header: String = WGS84Header.standard, trailer: String = "") -> String {
        "{\(header)\"features\":[\(features)]\(trailer)}"
    }

    enum WGS84Header {
        static let standard = #""objectIdFieldName":"OBJECTID","spatialReference":{"wkid":4326,"latestWkid":4326},"fields":[{"name":"OBJECTID"},{"name":"NAME"}],"#
    }
}

// MARK: - Pages the fast path takes

extension GeoJSONTranscoderTests {
    /// Named pages whose every geometry the fast path writes itself (no per-geometry fallback).
    static let fastPages: [(String, String)] = [
        ("points", page(#"""
            {"attributes":{"OBJECTID":1,"NAME":"a"},"geometry":{"x":-118.25,"y":34.05}},
            {"attributes":{"OBJECTID":2,"NAME":"b"},"geometry":{"y":1e1,"x":-0.0}},
            {"attributes":{"OBJECTID":3,"NAME":"c"},"geometry":{"x":null,"y":null}},
            {"attributes":{"OBJECTID":4,"NAME":"d"},"geometry":{"x":"NaN","y":"NaN"}},
            {"attributes":{"OBJECTID":5,"NAME":"e"},"geometry":{"x":1.5,"y":2,"z":30,"m":null}}
            """#, trailer: #","exceededTransferLimit":true"#)),
        ("multipoints with Z", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"hasZ":true,"points":[[1,2,3],[4.25,5.5,6],[7,8,null]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"points":[[-1,-2]]}}
            """#)),
        ("polylines with one and two paths", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"paths":[[[0,0],[1,1],[2,0.5]]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"paths":[[[0,0],[1,1]],[[5,5],[6,6],[7,5]]]}}
            """#)),
        ("polygons with one ring, either winding", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"rings":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"rings":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]}},
            {"attributes":{"OBJECTID":3},"geometry":{"rings":[[[-118.1234567,34.1],[-118.1234567,34.2],[-118.0,34.2],[-118.0,34.1],[-118.1234567,34.1]]]}}
            """#)),
        ("polygons with holes, a hole listed before its exterior", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]],[[6,6],[8,6],[8,8],[6,8],[6,6]]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"rings":[[[2,2],[4,2],[4,4],[2,4],[2,2]],[[0,0],[0,10],[10,10],[10,0],[0,0]]]}}
            """#)),
        ("null, empty and absent geometries", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":null},
            {"attributes":{"OBJECTID":2},"geometry":{}},
            {"attributes":{"OBJECTID":3}},
            {"attributes":{"OBJECTID":4},"geometry":{"x":null}},
            {"attributes":{"OBJECTID":5},"geometry":{"x":1,"y":2,"spatialReference":null}}
            """#)),
        ("Z values and hasM", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"hasZ":true,"hasM":true,"rings":[[[0,0,5,1],[0,1,5,2],[1,1,5,3],[1,0,5,4],[0,0,5,1]]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"hasM":true,"paths":[[[0,0,7],[1,1,8]]]}},
            {"attributes":{"OBJECTID":3},"geometry":{"points":[[0,0,[1,2]],[1,1,{"m":3}]]}}
            """#, header: WGS84Header.standard + #""hasZ":true,"hasM":true,"#)),
        ("attributes with escapes, unicode, nested values and big numbers", page(#"""
            {"attributes":{"OBJECTID":1,"NAME":"quote \" backslash \\ slash \/ tab \t nl \n u \u00e9 \ud83d\ude00 ctl \u0001","é ключ":"日本語 😀","nested":{"a":[1,2,{"b":null}],"c":true},"empty":{},"list":[],"big":12345678901234567890,"exp":1.5e10,"neg":-0,"frac":0.1000,"f":false,"n":null}},
            {"attributes":{"OBJECTID":2,"NAME":"","dup":1,"dup":2}}
            """#)),
        ("members in unusual order and whitespace", #"""
            {
              "features" : [
                { "geometry" : { "y" : 2 , "x" : 1 } , "extra" : [1, {"x": 2}] , "attributes" : { "NAME" : "a" , "OBJECTID" : 7 } } ,
                { "attributes" : { "OBJECTID" : 8 } , "geometry" : { "rings" : [ [ [0, 0] , [0, 1] , [1, 1] , [1, 0] , [0, 0] ] ] } }
              ] ,
              "fields" : [ { "name" : "OBJECTID" } , { "name" : "NAME" } , 7 , { "alias" : "x" } ],
              "spatialReference" : { "wkid" : 4326 },
              "objectIdFieldName" : "OBJECTID",
              "exceededTransferLimit" : false
            }
            """#),
        ("objectIdFieldName after the features, needed for the ids", #"""
            {"features":[{"attributes":{"FID":1,"NAME":"a"},"geometry":{"x":1,"y":2}},{"attributes":{"FID":2},"geometry":{"x":3,"y":4}}],
             "spatialReference":{"wkid":4326},"objectIdFieldName":"FID"}
            """#),
        ("case-insensitive object id", page(#"""
            {"attributes":{"objectid":1},"geometry":{"x":1,"y":2}},
            {"attributes":{"ObjectId":2,"objectid":99},"geometry":{"x":1,"y":2}},
            {"attributes":{"OBJECTID":3},"geometry":{"x":1,"y":2}}
            """#)),
        ("object ids written as 12.0 and 1e3, and negative", page(#"""
            {"attributes":{"OBJECTID":12.0}},{"attributes":{"OBJECTID":1e3}},{"attributes":{"OBJECTID":-5}},
            {"attributes":{"OBJECTID":9007199254740993}}
            """#)),
        ("no spatial reference, a byte-order mark", "\u{FEFF} " + #"{"features":[{"attributes":{"OBJECTID":1},"geometry":{"x":500000,"y":4000000}}]}"#),
        ("a GeoJSON-style transfer flag under properties", #"{"properties":{"exceededTransferLimit":true},"features":[]}"#),
        // Coordinates with 17 and 19 significant digits (mantissas over 2^53, read within a rounding), a ring
        // closed by `1.50` after `1.5`, and a hole whose winding is decided far outside that rounding.
        ("long Web Mercator coordinates and a ring closed by another spelling", page(#"""
            {"attributes":{"OBJECTID":1},"geometry":{"rings":[[[-13163012.123456789,4035001.5],[-13163012.123456789,4035101.987654321],[-13162912.000000000001,4035101.987654321],[-13162912.000000000001,4035001.5],[-13163012.123456789,4035001.50]]]}},
            {"attributes":{"OBJECTID":2},"geometry":{"rings":[[[-13163000.5,4035000.25],[-13163000.5,4035100.75],[-13162900.125,4035100.75],[-13162900.125,4035000.25],[-13163000.5,4035000.25]],[[-13162990.999999999,4035010.000000001],[-13162910.000000001,4035010.000000001],[-13162910.000000001,4035090.999999999],[-13162990.999999999,4035090.999999999],[-13162990.999999999,4035010.000000001]]]}}
            """#)),
    ]

    @Test("pages the fast path writes itself agree with the reference", arguments: fastPages)
    func fastPagesAgree(name: String, text: String) throws {
        let outcome = Self.fastPath(text)
        #expect(outcome != nil, "\(name): the fast path gave up")
        #expect(outcome?.geometryFallbacks == 0, "\(name): a geometry went the reference way")
        let expected = Self.expectAgreement(bodyBytes(text))
        #expect((try? expected.get()) != nil, "\(name): the reference refused the page")
    }

    @Test("polygon rings are written counter-clockwise, holes clockwise, coordinates as their text")
    func windingAndText() throws {
        let text = Self.page(#"{"attributes":{"OBJECTID":1},"geometry":{"rings":[[[0,0],[0,10.50],[10,10.50],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]]}}"#)
        let page = try ArcGISResponse.geoJSONPage(bodyBytes(text), layer: Self.layer, objectIdField: "OBJECTID")
        let written = String(decoding: page.bytes, as: UTF8.self)
        #expect(written == #"{"type":"Feature","id":1,"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10.50],[0,10.50],[0,0]],[[2,2],[2,4],[4,4],[4,2],[2,2]]]},"properties":{"OBJECTID":1}}"#)
    }
}

// MARK: - Geometries that go the reference way, one at a time

extension GeoJSONTranscoderTests {
    static let fallbackGeometries: [(String, String)] = [
        ("two exteriors", #"{"rings":[[[0,0],[0,1],[1,1],[1,0],[0,0]],[[5,5],[5,6],[6,6],[6,5],[5,5]]]}"#),
        ("a hole outside its exterior", #"{"rings":[[[0,0],[0,1],[1,1],[1,0],[0,0]],[[5,5],[6,5],[6,6],[5,6],[5,5]]]}"#),
        ("a hole touching its exterior", #"{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[0,0],[4,0],[4,4],[0,4],[0,0]]]}"#),
        ("two counter-clockwise rings", #"{"rings":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[5,5],[6,5],[6,6],[5,6],[5,5]]]}"#),
        ("an unclosed ring", #"{"rings":[[[0,0],[0,1],[1,1],[1,0]]]}"#),
        ("a ring with no area", #"{"rings":[[[0,0],[1,1],[2,2],[0,0]]]}"#),
        ("an envelope", #"{"xmin":1,"ymin":2,"xmax":3,"ymax":4}"#),
        ("an empty envelope", #"{"xmin":"NaN","ymin":2,"xmax":3,"ymax":4}"#),
        ("a geometry in Web Mercator", #"{"x":-13163000,"y":4035000,"spatialReference":{"wkid":102100}}"#),
        ("an escaped member name", #"{"\u0078":1,"y":2}"#),
        ("a repeated member", #"{"x":1,"y":2,"y":3}"#),
        ("empty lists", #"{"points":[]}"#),
        ("empty paths", #"{"paths":[]}"#),
        ("empty rings", #"{"rings":[]}"#),
        ("a NaN spelled with an escape", #"{"x":"N\u0061N","y":0}"#),
    ]

    @Test("unusual geometries are decoded on their own and agree with the reference", arguments: fallbackGeometries)
    func fallbackGeometriesAgree(name: String, geometry: String) throws {
        // Before and after the attributes: the geometry is written after the feature's head, or buffered.
        for text in [
            Self.page(#"{"attributes":{"OBJECTID":1},"geometry":\#(geometry)},{"attributes":{"OBJECTID":2},"geometry":{"x":1,"y":2}}"#),
            Self.page(#"{"geometry":\#(geometry),"attributes":{"OBJECTID":1}},{"geometry":{"x":1,"y":2},"attributes":{"OBJECTID":2}}"#),
        ] {
            let outcome = Self.fastPath(text)
            #expect(outcome?.geometryFallbacks == 1, "\(name)")
            Self.expectAgreement(bodyBytes(text))
        }
    }

    static let refusedGeometries: [(String, String)] = [
        ("curves", #"{"curveRings":[]}"#),
        ("a string coordinate", #"{"x":"a","y":2}"#),
        ("a point without y", #"{"x":1}"#),
        ("a null coordinate in a ring", #"{"rings":[[[0,0],[0,null],[1,1],[1,0],[0,0]]]}"#),
        ("a coordinate beyond a Double", #"{"points":[[1e400,0]]}"#),
        ("a path of one position", #"{"paths":[[[0,0]]]}"#),
        ("a ring of three positions", #"{"rings":[[[0,0],[0,1],[0,0]]]}"#),
        ("a position of one value", #"{"points":[[1]]}"#),
        ("two shapes", #"{"x":1,"y":2,"points":[[1,2]]}"#),
        ("an array", #"[1,2]"#),
        ("a number", "7"),
        ("GeoJSON", #"{"type":"Point","coordinates":[1,2]}"#),
        ("an invalid spatial reference", #"{"x":1,"y":2,"spatialReference":{"wkt":"PROJCS[]"}}"#),
        ("a spatial reference that cannot be projected", #"{"x":1,"y":2,"spatialReference":{"wkid":2229}}"#),
    ]

    @Test("geometries the reference refuses give its error", arguments: refusedGeometries)
    func refusedGeometriesAgree(name: String, geometry: String) throws {
        let text = Self.page(#"{"attributes":{"OBJECTID":1},"geometry":{"x":1,"y":2}},{"attributes":{"OBJECTID":2},"geometry":\#(geometry)}"#)
        let result = Self.expectAgreement(bodyBytes(text))
        #expect((try? result.get()) == nil, "\(name) should be an error")
    }
}

// MARK: - Whole pages that go the reference way

extension GeoJSONTranscoderTests {
    @Test("pages in Web Mercator, GeoJSON pages and the shared fixtures agree with the reference")
    func referencePagesAgree() throws {
        let pages = [
            DecodingFixture.pointPage, DecodingFixture.polygonPage,
            Self.page(#"{"attributes":{"OBJECTID":1},"geometry":{"rings":[[[-13163000,4035000],[-13163000,4036000],[-13162000,4036000],[-13162000,4035000],[-13163000,4035000]]]}}"#,
                      header: #""spatialReference":{"wkid":102100,"latestWkid":3857},"#),
            Self.page(#"{"attributes":{"OBJECTID":1},"geometry":{"x":-13163000,"y":4035000}}"#, trailer: #","spatialReference":{"wkid":3857}"#),
            #"{"type":"FeatureCollection","features":[{"type":"Feature","id":5,"geometry":{"type":"Point","coordinates":[-118.2,34.0]},"properties":{"OBJECTID":5,"NAME":"A"}}]}"#,
        ]
        for text in pages {
            let result = Self.expectAgreement(bodyBytes(text))
            #expect((try? result.get()) != nil)
        }
        #expect(Self.fastPath(pages[2]) == nil, "a Web Mercator page needs projecting")
        #expect(Self.fastPath(pages[3]) == nil, "a spatial reference after the features still counts")
    }

    static let errorBodies: [String] = [
        "", "   ", "<html><title>Login</title></html>", "Service Unavailable",
        #"{"error":{"code":498,"message":"Invalid token.","details":[]}}"#,
        #"{"error":{"code":500,"message":"Unable to complete operation."}}"#,
        #"{"status":"error","messages":["Token Expired."],"code":498}"#,
        #"{"objectIdFieldName":"OBJECTID","count":3}"#,
        #"{"features":{}}"#, #"{"features":[7]}"#, #"[1,2]"#,
        #"{"features":[{"attributes":{"OBJECTID":1}}]} x"#,
        #"{"features":[{"attributes":{"OBJECTID":1},"geometry":{"x":1,"y":2}}],"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"NAME":"cut"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"NAME":tru}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"NAME":"\ud800"}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"NAME":"\x"}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":01}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":"1"}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1.5}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":9223372036854775807}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":null}}]}"#,
        #"{"features":[{"attributes":null}]}"#,
        #"{"features":[{"attributes":[]}]}"#,
        #"{"features":[{"geometry":{"x":1,"y":2}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1},"attributes":{"OBJECTID":2}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"big":1e400}}]}"#,
        #"{"features":[{"attributes":{"OBJECTID":1,"big":[1e400]}}]}"#,
    ]

    @Test("error, truncated and invalid bodies give the reference's error", arguments: errorBodies)
    func errorBodiesAgree(text: String) {
        Self.expectAgreement(bodyBytes(text))
    }

    @Test("bytes that are not UTF-8 give the reference's error")
    func invalidUTF8() {
        let prefix = bodyBytes(#"{"features":[{"attributes":{"OBJECTID":1,"NAME":""#)
        let suffix = bodyBytes(#""}}]}"#)
        for bad: [UInt8] in [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            Self.expectAgreement(prefix + bad + suffix)
        }
        Self.expectAgreement(prefix + [0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80] + suffix)  // é 😀: fine
    }

    @Test("a feature without its object id is missingObjectID")
    func missingObjectID() {
        let text = Self.page(#"{"attributes":{"OBJECTID":1}},{"attributes":{"NAME":"no id"},"geometry":{"x":1,"y":2}}"#)
        let result = Self.expectAgreement(bodyBytes(text))
        guard case .failure(let error) = result else {
            Issue.record("expected an error")
            return
        }
        #expect(error.code == .missingObjectID)
        #expect(error.message.contains("Feature number 2"))
        let absentName = #"{"features":[{"attributes":{"FID":1}}]}"#
        #expect(decodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.geoJSONPage(bodyBytes(absentName), layer: Self.layer, objectIdField: "OBJECTID")
        }?.code == .missingObjectID)
    }

    @Test("object-id names: escaped, compared as strings, ambiguous only when the reference's choice is")
    func objectIDNames() throws {
        // An escaped name, and a Kelvin sign, which Swift's String equality takes for "K".
        Self.expectAgreement(bodyBytes(Self.page(#"{"attributes":{"OBJ\u0045CTID":5}},{"attributes":{"OBJECTID":6}}"#)))
        let kelvin = Self.page("{\"attributes\":{\"\u{212A}\":5}},{\"attributes\":{\"\u{212A}\":6,\"K\":7}},{\"attributes\":{\"K\":8}}")
        #expect(Self.fastPath(kelvin, objectIdField: "K") != nil)
        Self.expectAgreement(bodyBytes(kelvin), objectIdField: "K")
        // Two names that match case-insensitively: the reference takes whichever its dictionary yields first.
        let ambiguous = Self.page(#"{"attributes":{"objectid":1,"ObjectID":2}}"#)
        #expect(Self.fastPath(ambiguous) == nil)
        let page = try ArcGISResponse.geoJSONPage(bodyBytes(ambiguous), layer: Self.layer, objectIdField: "OBJECTID")
        #expect(page.entries.count == 1 && [1, 2].contains(page.entries[0].objectId))
    }

    @Test("limits: bytes, nesting and positions give the reference's errors")
    func limits() {
        let polygon = Self.page(#"{"attributes":{"OBJECTID":1,"deep":[[[[[[[[1]]]]]]]]},"geometry":{"rings":[[[0,0],[0,1],[1,1],[1,0],[0,0]]]}}"#)
        for limits in [
            DecodingLimits(maxBytes: 64), DecodingLimits(maxDepth: 6), DecodingLimits(maxDepth: 9),
            DecodingLimits(maxDepth: 12), DecodingLimits(maxPositions: 4), DecodingLimits(maxPositions: 5),
        ] {
            Self.expectAgreement(bodyBytes(polygon), limits: limits)
        }
    }
}

// MARK: - Generated parcels and mutations

extension GeoJSONTranscoderTests {
    /// A page of `count` parcel polygons in WGS 84, 5 to 8 vertices each (clockwise, some with a hole), and
    /// eight attributes: the shape of the engine's hot path.
    static func parcelPage(count: Int, seed: UInt64) -> String {
        var random = SplitMix64(seed: seed)
        var text = #"{"objectIdFieldName":"OBJECTID","uniqueIdField":{"name":"OBJECTID","isSystemMaintained":true},"globalIdFieldName":"","geometryType":"esriGeometryPolygon","spatialReference":{"wkid":4326,"latestWkid":4326},"fields":["#
        let names = ["OBJECTID", "APN", "SITUS", "USECODE", "YEAR_BUILT", "AREA_SQFT", "VALUE", "UPDATED"]
        text += names.map { #"{"name":"\#($0)","type":"esriFieldTypeString","alias":"\#($0)"}"# }.joined(separator: ",")
        text += #"],"features":["#
        for index in 0..<count {
            if index > 0 { text += "," }
            let cx = -118.5 + Double.random(in: 0..<0.5, using: &random)
            let cy = 34.0 + Double.random(in: 0..<0.4, using: &random)
            let vertices = Int.random(in: 4...7, using: &random)
            let radius = 0.0002 + Double.random(in: 0..<0.0003, using: &random)
            var ring: [String] = []
            for vertex in 0..<vertices {
                let angle = -2 * Double.pi * Double(vertex) / Double(vertices)  // clockwise
                ring.append("[\(roundTo7(cx + radius * cos(angle))),\(roundTo7(cy + radius * sin(angle)))]")
            }
            ring.append(ring[0])
            var rings = "[" + ring.joined(separator: ",") + "]"
            if index % 50 == 0 {
                let r = radius / 4
                let hole = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r), (cx - r, cy - r)]
                rings += ",[" + hole.map { "[\(roundTo7($0.0)),\(roundTo7($0.1))]" }.joined(separator: ",") + "]"
            }
            text += #"{"attributes":{"OBJECTID":\#(index + 1),"APN":"\#(4000 + index / 100)-\#(threeDigits(index % 1000))-0\#(index % 10)","SITUS":"\#(index * 7 % 9999) MAIN ST","USECODE":"0100","YEAR_BUILT":\#(1900 + index % 120),"AREA_SQFT":\#(1000 + index % 9000).5,"VALUE":\#(index * 1234 % 2_000_000),"UPDATED":1700000000000},"geometry":{"rings":[\#(rings)]}}"#
        }
        text += #"],"exceededTransferLimit":true}"#
        return text
    }

    static func threeDigits(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: Swift.max(0, 3 - digits.count)) + digits
    }

    static func roundTo7(_ value: Double) -> String {
        let scaled = (value * 1e7).rounded()
        return "\(scaled / 1e7)"
    }

    @Test("2,000 generated parcels: every geometry on the fast path, equal to the reference")
    func parcels() throws {
        let text = Self.parcelPage(count: 2_000, seed: 7)
        let outcome = Self.fastPath(text)
        #expect(outcome?.page.entries.count == 2_000)
        #expect(outcome?.geometryFallbacks == 0)
        let result = Self.expectAgreement(bodyBytes(text))
        #expect((try? result.get())?.ids.count == 2_000)
    }

    @Test("4,000 random mutations: no crash, and the same outcome as the reference")
    func mutations() {
        let seeds = Self.fastPages.map(\.1) + [
            DecodingFixture.pointPage, DecodingFixture.polygonPage, Self.parcelPage(count: 3, seed: 1),
            #"{"error":{"code":498,"message":"Invalid token.","details":["d"]}}"#,
        ] + Self.fallbackGeometries.prefix(6).map { geometry in
            Self.page(#"{"attributes":{"OBJECTID":1},"geometry":\#(geometry.1)}"#)
        }
        var generator = SplitMix64(seed: 0x7EA5_C0DE)
        var successes = 0
        var fastSuccesses = 0
        for round in 0..<4_000 {
            let body = ResponseDecodingFuzzTests.mutate(Array(seeds[round % seeds.count].utf8), using: &generator)
            if case .success = Self.expectAgreement(body) {
                successes += 1
                if GeoJSONPageTranscoder.transcode(body, objectIdField: "OBJECTID", limits: .default) != nil { fastSuccesses += 1 }
            }
        }
        // Enough mutations keep the page valid, and on the fast path, for the comparison of outputs to mean
        // something.
        #expect(successes > 200)
        #expect(fastSuccesses > 100, "\(fastSuccesses) of \(successes) on the fast path")
    }
}
