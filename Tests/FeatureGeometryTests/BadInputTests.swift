import FeatureGeometry
import FeatureQuerySupport
import PropertyBased
import Testing

/// Bad input of every kind yields a typed GeometryError: no crash, no hang.
@Suite("Bad input")
struct BadInputTests {
    static let validDocuments = [
        #"{"rings":[[[0,0],[0,10],[10,10],[10,0],[0,0]],[[2,2],[4,2],[4,4],[2,4],[2,2]]],"spatialReference":{"wkid":102100,"latestWkid":3857}}"#,
        #"{"type":"MultiPolygon","bbox":[0,0,3,3],"coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]]}"#,
        #"{"x":-118.15,"y":33.8,"spatialReference":{"wkid":4326}}"#,
    ]

    /// Decodes with whichever format the text looks like, and demands that any failure is a GeometryError.
    static func decodeAny(_ bytes: [UInt8], limits: DecodingLimits = .default) {
        do {
            _ = try EsriJSON.decode(bytes, limits: limits)
        } catch {
            #expect(error is GeometryError, "\(error)")
        }
        do {
            _ = try GeoJSON.decode(bytes, limits: limits)
        } catch {
            #expect(error is GeometryError, "\(error)")
        }
    }

    @Test(arguments: validDocuments)
    func everyTruncationIsMalformedJSON(_ document: String) {
        let bytes = Array(document.utf8)
        for length in 0..<bytes.count {
            let error = #expect(throws: GeometryError.self) { _ = try ParsedJSON(parsing: bytes[0..<length]) }
            #expect(error?.code == .malformedJSON, "prefix of \(length) bytes")
        }
    }

    static let wrongShapes: [(json: String, code: GeometryError.Code)] = [
        ("[]", .invalidGeometry), (#""x""#, .invalidGeometry), ("42", .invalidGeometry), ("null", .invalidGeometry),
        ("{}", .invalidGeometry), (#"{"x":1}"#, .invalidGeometry), (#"{"x":"1","y":2}"#, .invalidCoordinate),
        (#"{"x":true,"y":2}"#, .invalidCoordinate), (#"{"points":{}}"#, .invalidGeometry),
        (#"{"paths":[[[0,0]]]}"#, .invalidGeometry), (#"{"paths":[[0,0]]}"#, .invalidGeometry),
        (#"{"paths":[[[0]]]}"#, .invalidGeometry), (#"{"rings":[[[0,0],[1,1]]]}"#, .invalidGeometry),
        (#"{"rings":[[[0,0],[1,1],[0,0]]]}"#, .invalidGeometry), (#"{"x":1,"y":2,"rings":[]}"#, .invalidGeometry),
        (#"{"xmin":0,"ymin":0,"xmax":-1,"ymax":1}"#, .invalidGeometry), (#"{"xmin":0,"ymin":0,"xmax":1}"#, .invalidGeometry),
        (#"{"x":1,"y":2,"spatialReference":{"wkid":"4326"}}"#, .invalidGeometry),
        (#"{"x":1,"y":2,"spatialReference":4326}"#, .invalidGeometry),
        (#"{"points":[[0,0],[1,"NaN"]]}"#, .invalidCoordinate), (#"{"x":1e400,"y":0}"#, .invalidCoordinate),
        (#"{"paths":[[[0,0],[-1e999,1]]]}"#, .invalidCoordinate),
    ]

    @Test func wrongEsriShapesAreTypedErrors() {
        for (json, code) in Self.wrongShapes {
            let error = #expect(throws: GeometryError.self) { _ = try EsriJSON.decode(json) }
            #expect(error?.code == code, "\(json): \(String(describing: error))")
        }
    }

    static let wrongGeoJSON: [(json: String, code: GeometryError.Code)] = [
        (#"{"type":"Point"}"#, .invalidGeometry), (#"{"type":"Point","coordinates":[1]}"#, .invalidGeometry),
        (#"{"type":"Point","coordinates":null}"#, .invalidGeometry), (#"{"type":5,"coordinates":[1,2]}"#, .invalidGeometry),
        (#"{"type":"Polygon","coordinates":[[1,2]]}"#, .invalidGeometry),
        (#"{"type":"Banana","coordinates":[]}"#, .unsupportedGeometryType),
        (#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0]]]]}"#, .invalidGeometry),
        (#"{"type":"LineString","coordinates":[[0,0]]}"#, .invalidGeometry),
        (#"{"type":"Point","coordinates":[1,2],"bbox":[1,2]}"#, .invalidGeometry),
        (#"{"type":"Point","coordinates":[1e400,2]}"#, .invalidCoordinate),
        (#"{"type":"GeometryCollection"}"#, .invalidGeometry),
        (#"{"rings":[]}"#, .invalidGeometry),
    ]

    @Test func wrongGeoJSONShapesAreTypedErrors() {
        for (json, code) in Self.wrongGeoJSON {
            let error = #expect(throws: GeometryError.self) { _ = try GeoJSON.decode(json) }
            #expect(error?.code == code, "\(json): \(String(describing: error))")
        }
    }

    @Test func errorsSayWhere() {
        let error = expectGeometryError(.invalidCoordinate) {
            _ = try EsriJSON.decode(#"{"rings":[[[0,0],[1,0],[1,"a"],[0,0]]]}"#)
        }
        #expect(error?.path == "$.rings[0][2][1]")
        #expect(error?.description.contains("$.rings[0][2][1]") == true)
        let malformed = expectGeometryError(.malformedJSON) { _ = try ParsedJSON(parsing: #"{"x":1,,"y":2}"#) }
        #expect(malformed?.message.contains("byte 7") == true)
    }

    @Test func notJSONAtAll() {
        for text in ["", "   ", "NaN", "Infinity", "-Infinity", #"{"x":NaN,"y":1}"#, #"{"x":Infinity,"y":1}"#, "[1,2,]",
                     #"{"x":1,"y":2} x"#, "01", "1.", "-", "1e", ".5", "+1", "[1 2]", #"{"x" 1}"#, #"{x:1}"#, "'a'",
                     #""\u12""#, #""\ud800""#, #""\udc00x""#, "\"a\tb\"", #""\q""#, "tru", "nul", "[", "{", "\""] {
            expectGeometryError(.malformedJSON) { _ = try ParsedJSON(parsing: text) }
        }
        expectGeometryError(.malformedJSON) { _ = try ParsedJSON(parsing: [0x22, 0xC3, 0x28, 0x22]) }  // invalid UTF-8
        expectGeometryError(.malformedJSON) { _ = try ParsedJSON(parsing: [0x22, 0xFF, 0x22]) }
    }

    @Test func limitsBoundSizeDepthAndPositions() {
        let deep = String(repeating: "[", count: 200_000)
        expectGeometryError(.limitExceeded) { _ = try ParsedJSON(parsing: deep) }
        expectGeometryError(.limitExceeded) { _ = try EsriJSON.decode(String(repeating: #"{"a":"#, count: 100_000)) }
        let positions = (0..<2_000).map { "[\($0),\($0)]" }.joined(separator: ",")
        let limits = DecodingLimits(maxPositions: 1_000)
        expectGeometryError(.limitExceeded) { _ = try EsriJSON.decode(#"{"points":[\#(positions)]}"#, limits: limits) }
        expectGeometryError(.limitExceeded) {
            _ = try GeoJSON.decode(#"{"type":"MultiPoint","coordinates":[\#(positions)]}"#, limits: limits)
        }
        expectGeometryError(.limitExceeded) {
            _ = try EsriJSON.decode(#"{"x":1,"y":2}"#, limits: DecodingLimits(maxBytes: 8))
        }
        #expect(DecodingLimits(maxDepth: 1_000_000).maxDepth == 512)
        var nested: Any = [0.0, 0.0]
        for _ in 0..<1_000 { nested = [nested] }
        expectGeometryError(.limitExceeded) { _ = try ParsedJSON(jsonObject: nested) }
    }

    @Test func aHugeFlatArrayIsRejectedQuickly() {
        let huge = "{\"paths\":[[" + String(repeating: "0,", count: 1_000_000) + "0]]}"
        expectGeometryError(.invalidGeometry) { _ = try EsriJSON.decode(huge) }
    }

    @Test func randomBytesNeverCrash() async {
        let alphabet = Array(#"{}[],:"0123456789.-+eE xyminaxtrulfs\NaIy"#.utf8) + [0, 0xFF, 0x80]
        let bytes = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
            (0..<Int.random(in: 0...120, using: &rng)).map { _ in alphabet.randomElement(using: &rng) ?? 0 }
        })
        await propertyCheck(count: 1_000, input: bytes) { Self.decodeAny($0) }
    }

    @Test func mutatedDocumentsNeverCrash() async {
        let mutated = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
            var bytes = Array(Self.validDocuments.randomElement(using: &rng)?.utf8 ?? "".utf8)
            for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: at)
                default: bytes[at] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            return bytes
        })
        await propertyCheck(count: 1_000, input: mutated) { Self.decodeAny($0) }
    }
}
