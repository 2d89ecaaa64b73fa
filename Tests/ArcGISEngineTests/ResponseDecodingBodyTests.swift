import Testing
import FeatureService

@testable import ArcGISEngine
import FeatureGeometry

/// Bodies that are not what the protocol promises: each decoder names the layer, says what it saw, and marks
/// only truncation (and emptiness) as worth retrying.
@Suite("Malformed bodies")
struct ResponseDecodingBodyTests {
    let layer = DecodingFixture.layerURL

    /// Every decoder, on one body.
    func allDecoders(_ body: [UInt8]) -> [(String, FeatureServiceError?)] {
        [
            ("count", decodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: DecodingFixture.layerURLWithToken) }),
            ("ids", decodingError { () throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: DecodingFixture.layerURLWithToken) }),
            ("layer", decodingError { () throws(FeatureServiceError) in try ArcGISResponse.layerMetadata(body, url: DecodingFixture.layerURLWithToken) }),
            ("service", decodingError { () throws(FeatureServiceError) in try ArcGISResponse.serviceMetadata(body, url: DecodingFixture.layerURLWithToken) }),
            ("page", decodingError { () throws(FeatureServiceError) in
                try ArcGISResponse.featurePage(body, layer: DecodingFixture.layerURLWithToken, objectIdField: "OBJECTID")
            }),
        ]
    }

    func expectMalformed(
        _ body: [UInt8], retryable: Bool, saying phrase: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for (decoder, error) in allDecoders(body) {
            guard let error else {
                Issue.record("\(decoder) accepted the body", sourceLocation: sourceLocation)
                continue
            }
            #expect(error.code == .malformedResponse, "\(decoder): \(error)", sourceLocation: sourceLocation)
            #expect(error.isRetryable == retryable, "\(decoder): \(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(layer), "\(decoder): \(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(phrase), "\(decoder): \(error.message)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("SECRET"), sourceLocation: sourceLocation)
            #expect(error.layer == layer, sourceLocation: sourceLocation)
        }
    }

    @Test("an empty or blank body")
    func empty() {
        expectMalformed([], retryable: true, saying: "empty")
        expectMalformed(bodyBytes(" \r\n\t"), retryable: true, saying: "whitespace")
    }

    @Test("an HTML login page quotes its title")
    func html() {
        let page = bodyBytes("""
            \n<!DOCTYPE html>\n<html><head><meta charset="utf-8"><TITLE>
              ArcGIS   Sign In </TITLE></head><body><form action="/login?token=SECRET"></form></body></html>
            """)
        expectMalformed(page, retryable: false, saying: "the service answered HTML, not JSON")
        expectMalformed(page, retryable: false, saying: "\"ArcGIS Sign In\"")
        expectMalformed(bodyBytes("<html><body>Proxy error</body></html>"), retryable: false, saying: "HTML, not JSON")
    }

    @Test("JSON that ends early is truncated and retryable")
    func truncated() {
        let full = DecodingFixture.pointPage
        for cut in [1, 17, full.utf8.count / 2, full.utf8.count - 1] {
            let body = Array(full.utf8.prefix(cut))
            expectMalformed(body, retryable: true, saying: "truncated")
        }
        expectMalformed(bodyBytes(#"{"objectIdFieldName":"OBJECTID","objectIds":[1,2,3"#), retryable: true, saying: "truncated")
        expectMalformed(bodyBytes(#"{"objectIds":[1,2,-"#), retryable: true, saying: "truncated")
        expectMalformed(bodyBytes(#"{"objectIds":[1,2,nu"#), retryable: true, saying: "truncated")
        expectMalformed(bodyBytes(#"{"name":"abc\u00"#), retryable: true, saying: "truncated")
    }

    @Test("other invalid JSON is not retryable, and says where")
    func invalid() {
        expectMalformed(bodyBytes(#"{"count":1,}"#), retryable: false, saying: "at byte 11")
        expectMalformed(bodyBytes(#"{"objectIds":[1 2]}"#), retryable: false, saying: "not valid JSON")
        expectMalformed(bodyBytes(#"{"a":"\x"}"#), retryable: false, saying: "not valid JSON")
        expectMalformed(bodyBytes(#"{"objectIds":[01]}"#), retryable: false, saying: "leading zero")
        expectMalformed(bodyBytes(#"{"count":3} trailing"#), retryable: false, saying: "after the end")
        expectMalformed(bodyBytes("Service Unavailable"), retryable: false, saying: "it begins \"Service Unavailable\"")
        expectMalformed([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], retryable: false, saying: "not valid JSON")
    }

    @Test("JSON of the wrong shape names what is missing")
    func wrongShape() {
        expectMalformed(bodyBytes("[1,2,3]"), retryable: false, saying: "not a JSON object")
        expectMalformed(bodyBytes(#""text""#), retryable: false, saying: "not a JSON object")
        let empty = allDecoders(bodyBytes("{}"))
        for (decoder, error) in empty {
            #expect(error?.code == .malformedResponse, "\(decoder)")
            #expect(error?.isRetryable == false, "\(decoder)")
        }
        let noCount = requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(bodyBytes(#"{"value":3}"#), layer: layer) }
        #expect(noCount.message.contains("\"count\""))
        let fractional = requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(bodyBytes(#"{"count":2.5}"#), layer: layer) }
        #expect(fractional.message.contains("2.5"))
        let noFields = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(bodyBytes(#"{"id":0,"name":"x","type":"Feature Layer","objectIdField":"OID"}"#), url: layer)
        }
        #expect(noFields.code == .malformedResponse)
        #expect(noFields.message.contains("\"fields\""))
        let noOID = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(
                bodyBytes(#"{"id":0,"name":"x","type":"Feature Layer","fields":[{"name":"A","type":"esriFieldTypeString"}]}"#), url: layer)
        }
        #expect(noOID.code == .malformedResponse)
        #expect(noOID.message.contains("names no object-id field"))
        let badField = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(bodyBytes(#"{"objectIdField":"OID","fields":[{"type":"esriFieldTypeOID"}]}"#), url: layer)
        }
        #expect(badField.message.contains("without a name"))
        let featuresNotArray = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.featurePage(bodyBytes(#"{"features":{"a":1}}"#), layer: layer, objectIdField: "OBJECTID")
        }
        #expect(featuresNotArray.code == .malformedResponse)
        #expect(featuresNotArray.message.contains("not an array"))
        let serviceAsLayer = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.serviceMetadata(bodyBytes(DecodingFixture.featureServerLayer), url: layer)
        }
        #expect(serviceAsLayer.message.contains("layer URL"))
    }

    @Test("a byte-order mark and surrounding whitespace are tolerated")
    func byteOrderMark() throws {
        let body = [0xEF, 0xBB, 0xBF] + bodyBytes("\n {\"count\": 42}\n")
        #expect(try ArcGISResponse.count(body, layer: layer) == 42)
        let ids = try ArcGISResponse.objectIDs([0xEF, 0xBB, 0xBF] + bodyBytes(#" {"objectIds":[3]} "#), layer: layer)
        #expect(ids.objectIds == [3])
    }

    @Test("bodies beyond the decoding limits are limitExceeded")
    func limits() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        let body = bodyBytes(#"{"features":[],"x":"# + deep + "}")
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.featurePage(body, layer: layer, objectIdField: "OBJECTID")
        }
        #expect(error.code == .limitExceeded)
        let big = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.featurePage(
                bodyBytes(DecodingFixture.pointPage), layer: layer, objectIdField: "OBJECTID", limits: .init(maxBytes: 100))
        }
        #expect(big.code == .limitExceeded)
        #expect(big.message.contains(layer))
    }
}
