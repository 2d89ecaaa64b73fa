import FeatureService
import FeatureQuerySupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import ArcGISEngine
import SampleFeatureServer

@Suite("returnIdsOnly bodies, read by the byte scanner")
struct ResponseDecodingObjectIDTests {
    let layer = DecodingFixture.layerURL

    func ids(_ text: String) throws(FeatureServiceError) -> ObjectIDPage {
        try ArcGISResponse.objectIDs(bodyBytes(text), layer: layer)
    }

    @Test("a plain answer, in the order sent")
    func plain() throws {
        let page = try ids(#"{"objectIdFieldName":"OBJECTID","objectIds":[5,3,9,3,-2,0,9223372036854775807,-9223372036854775808]}"#)
        #expect(page.objectIdFieldName == "OBJECTID")
        #expect(page.objectIds == [5, 3, 9, 3, -2, 0, .max, .min])
    }

    @Test("null and empty ids are an empty page")
    func nullIDs() throws {
        let none = try ids(#"{"objectIdFieldName":"OBJECTID","objectIds":null}"#)
        #expect(none.objectIds.isEmpty)
        #expect(none.objectIdFieldName == "OBJECTID")
        #expect(try ids(#"{ "objectIds" : [ ] , "objectIdFieldName" : null }"#) == ObjectIDPage(objectIdFieldName: nil, objectIds: []))
    }

    @Test("whitespace anywhere, and integral numbers written with a fraction or exponent")
    func lenientNumbers() throws {
        let page = try ids("{\n\t\"objectIds\" :\r\n [ 1 ,\n2,3 , 4.0, 5e0, 6E+0, 7000e-3 ]\n}\n")
        #expect(page.objectIds == [1, 2, 3, 4, 5, 6, 7])
    }

    @Test("other members are skipped correctly: escaped strings, nested values, look-alike names")
    func skipsOtherMembers() throws {
        let body = #"""
            {"geometryType":"esriGeometryPoint","note":"a \"quoted\" ] } [ { string with \\ and \u00e9 and \/",
             "nested":{"objectIds":[999],"deep":[[{"a":[1,{"b":null}]}],true,false,-1.5e-3]},
             "objectIdFieldNames":"wrong","objectIds_":[7],
             "fields":[{"name":"OBJECTID","type":"esriFieldTypeOID"}],
             "objectIdFieldName":"OBJECTID \"main\"","objectIds":[10,20,30],"after":{"x":"}"}}
            """#
        let page = try ids(body)
        #expect(page.objectIds == [10, 20, 30])
        #expect(page.objectIdFieldName == "OBJECTID \"main\"")
    }

    @Test("member names written with escapes are still recognised")
    func escapedNames() throws {
        let page = try ids(#"{"objectI\u0064s":[1,2],"objectIdField\u004Eame":"FID"}"#)
        #expect(page.objectIds == [1, 2])
        #expect(page.objectIdFieldName == "FID")
    }

    @Test("error members are found wherever they sit")
    func errorMembers() throws {
        let nested = requireDecodingError { () throws(FeatureServiceError) in
            try ids(#"{"objectIdFieldName":"OBJECTID","error":{"code":500,"message":"Error performing query operation","details":[]}}"#)
        }
        #expect(nested.code == .serviceError)
        #expect(nested.isRetryable)
        #expect(nested.serviceCode == 500)
        let admin = requireDecodingError { () throws(FeatureServiceError) in
            try ids(#"{"code":499,"messages":["Token Required"],"status":"error"}"#)
        }
        #expect(admin.code == .authentication)
        #expect(admin.message.contains("Token Required"))
        // An "error" nested inside another member is not an error body.
        #expect(try ids(#"{"info":{"error":{"code":400}},"objectIds":[1]}"#).objectIds == [1])
    }

    @Test(
        "wrong shapes are malformed and not retryable",
        arguments: [
            (#"{"objectIdFieldName":"OBJECTID"}"#, "no \"objectIds\""),
            (#"{"features":[],"objectIdFieldName":"OBJECTID"}"#, "ignored returnIdsOnly"),
            (#"{"objectIds":"1,2,3"}"#, "a string, not an array"),
            (#"{"objectIds":{"a":1}}"#, "an object, not an array"),
            (#"{"objectIds":[1,"2",3]}"#, "not an integer: a string"),
            (#"{"objectIds":[1,null]}"#, "not an integer: null"),
            (#"{"objectIds":[1,[2]]}"#, "not an integer: an array"),
            (#"{"objectIds":[1.5]}"#, "not an integer: 1.5"),
            (#"{"objectIds":[1e300]}"#, "not an integer"),
            (#"{"objectIds":[9223372036854775808]}"#, "64-bit"),
            (#"{"objectIds":[-9223372036854775809]}"#, "64-bit"),
            (#"{"objectIds":[123456789012345678901234]}"#, "64-bit"),
            (#"{"objectIds":[1],"objectIdFieldName":7}"#, "not a string"),
            ("[1,2,3]", "not a JSON object"),
        ])
    func wrongShapes(body: String, phrase: String) {
        let error = requireDecodingError { () throws(FeatureServiceError) in try ids(body) }
        #expect(error.code == .malformedResponse)
        #expect(!error.isRetryable)
        #expect(error.message.contains(layer))
        #expect(error.message.contains(phrase), "\(error.message)")
    }

    @Test(
        "broken syntax is malformed; only a cut body is retryable",
        arguments: [
            (#"{"objectIds":[1,2,]}"#, false), (#"{"objectIds":[1,,2]}"#, false), (#"{"objectIds":[1 2]}"#, false),
            (#"{"objectIds":[+1]}"#, false), (#"{"objectIds":[0x10]}"#, false), (#"{"objectIds":[1]]}"#, false),
            (#"{"objectIds":[1],}"#, false), (#"{"objectIds" [1]}"#, false), (#"{objectIds:[1]}"#, false),
            (#"{"note":"bad \q escape","objectIds":[1]}"#, false), ("{\"note\":\"raw \n newline\",\"objectIds\":[1]}", false),
            (#"{"nested":{"a":[1,}]},"objectIds":[1]}"#, false), (#"{"objectIds":[1,2,3"#, true),
            (#"{"objectIds":[1,2,3]"#, true), (#"{"note":"cut here"#, true), (#"{"objectIds":[1,2,3], "#, true),
            (#"{"objectIds":[1,2,3],"x":tr"#, true), (#"{"objectIds":[12"#, true),
        ])
    func brokenSyntax(body: String, retryable: Bool) {
        let error = requireDecodingError { () throws(FeatureServiceError) in try ids(body) }
        #expect(error.code == .malformedResponse)
        #expect(error.isRetryable == retryable, "\(error.message)")
        #expect(error.message.contains(retryable ? "truncated" : "not valid JSON"), "\(error.message)")
    }

    @Test("deeply nested members are refused without exhausting the stack")
    func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = requireDecodingError { () throws(FeatureServiceError) in try ids(#"{"x":"# + deep + #","objectIds":[1]}"#) }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains(layer))
        let moderate = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(decodingError { () throws(FeatureServiceError) in try ids(#"{"x":"# + moderate + #","objectIds":[1]}"#) } == nil)
    }

    @Test("2.4 million ids: correct, in order, reserved exactly")
    func bigArray() throws {
        let count = 2_400_000
        var text = #"{"objectIdFieldName":"OBJECTID","objectIds":["#
        text.reserveCapacity(count * 9 + 100)
        var expected: [Int64] = []
        expected.reserveCapacity(count)
        var generator = SplitMix64(seed: 42)
        var id: Int64 = 1_000_000
        for index in 0..<count {
            id += Int64(generator.next() % 7) + 1
            expected.append(id)
            if index > 0 { text += "," }
            text += String(id)
        }
        text += #"],"exceededTransferLimit":false}"#
        let body = Array(text.utf8)
        #expect(body.count > 19_000_000)

        let page = try ArcGISResponse.objectIDs(body, layer: layer)
        #expect(page.objectIds == expected)
        #expect(page.objectIdFieldName == "OBJECTID")
        // Reserved to the exact count: no growth beyond the ids themselves.
        #expect(page.objectIds.capacity < count + count / 50)
    }
}
