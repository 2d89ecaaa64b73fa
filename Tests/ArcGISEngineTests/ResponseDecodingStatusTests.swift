import EngineExecution
import CurlHTTP
import Testing
import FeatureService

@testable import ArcGISEngine

@Suite("ArcGIS error bodies, HTTP statuses, Retry-After and transport errors")
struct ResponseDecodingStatusTests {
    let layer = DecodingFixture.layerURL

    // MARK: Error bodies

    @Test(
        "the REST error shape maps its code",
        arguments: [
            (498, FeatureServiceError.Code.authentication, false), (499, .authentication, false), (403, .forbidden, false),
            (404, .notFound, false), (400, .serviceError, false), (429, .serviceError, true),
            (500, .serviceError, true), (502, .serviceError, true), (503, .serviceError, true),
            (504, .serviceError, true), (422, .serviceError, false), (401, .serviceError, false),
        ])
    func restErrorShape(serviceCode: Int, code: FeatureServiceError.Code, retryable: Bool) {
        let body = bodyBytes("""
            {"error":{"code":\(serviceCode),"message":"Something \(serviceCode)","details":["first detail","second"]}}
            """)
        // Every decoder recognises it before looking for its own members.
        let errors: [FeatureServiceError] = [
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: layer) },
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: layer) },
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.layerMetadata(body, url: layer) },
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.serviceMetadata(body, url: layer) },
            requireDecodingError { () throws(FeatureServiceError) in
                try ArcGISResponse.featurePage(body, layer: layer, objectIdField: "OBJECTID")
            },
        ]
        for error in errors {
            #expect(error.code == code)
            #expect(error.isRetryable == retryable)
            #expect(error.serviceCode == serviceCode)
            #expect(error.details == ["first detail", "second"])
            #expect(error.message.contains("Something \(serviceCode)"))
            #expect(error.message.contains(layer))
            #expect(error.layer == layer)
            #expect(error.httpStatus == nil)
        }
    }

    @Test("the admin shape maps its code, with messages as message and details")
    func adminShape() {
        let body = bodyBytes(#"{"status":"error","messages":["Token Expired.","Get a new one."],"code":498}"#)
        for error in [
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: layer) },
            requireDecodingError { () throws(FeatureServiceError) in try ArcGISResponse.layerMetadata(body, url: layer) },
        ] {
            #expect(error.code == .authentication)
            #expect(!error.isRetryable)
            #expect(error.serviceCode == 498)
            #expect(error.message.contains("Token Expired."))
            #expect(error.details == ["Get a new one."])
        }
        let failed = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.count(bodyBytes(#"{"status":"failed","messages":["Unauthorized access"],"code":"403"}"#), layer: layer)
        }
        #expect(failed.code == .forbidden)
        #expect(failed.serviceCode == 403)
        // "success" is not an error.
        #expect(decodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.count(bodyBytes(#"{"status":"success","count":3}"#), layer: layer)
        } == nil)
    }

    @Test("an error with an empty message speaks through its details; one without a code is a service error")
    func sparseErrorBodies() {
        let missingLayer = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.layerMetadata(
                bodyBytes(#"{"error":{"code":400,"message":"","details":["The requested layer (layerId: 99) was not found."]}}"#),
                url: layer)
        }
        #expect(missingLayer.code == .serviceError)
        #expect(missingLayer.message.contains("The requested layer (layerId: 99) was not found."))
        let bare = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.count(bodyBytes(#"{"error":{"message":"Unable to complete operation.","details":null}}"#), layer: layer)
        }
        #expect(bare.code == .serviceError)
        #expect(bare.serviceCode == nil)
        #expect(!bare.isRetryable)
        #expect(bare.details.isEmpty)
        let stringDetails = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.count(bodyBytes(#"{"error":{"code":"500","message":"Error performing query operation","details":"too big"}}"#), layer: layer)
        }
        #expect(stringDetails.serviceCode == 500)
        #expect(stringDetails.isRetryable)
        #expect(stringDetails.details == ["too big"])
    }

    @Test("a token echoed in a server message is redacted")
    func tokenInServerMessage() {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.count(
                bodyBytes(#"{"error":{"code":498,"message":"Invalid token for /query?token=SECRET-TOKEN-123&f=json","details":[]}}"#),
                layer: DecodingFixture.layerURLWithToken)
        }
        #expect(!error.description.contains("SECRET"))
        #expect(error.layer == layer)
    }

    // MARK: HTTP statuses

    @Test("2xx passes without looking at the body")
    func successPasses() throws {
        try ArcGISResponse.checkStatus(200, headers: [:], body: [], layer: layer)
        try ArcGISResponse.checkStatus(200, headers: [:], body: bodyBytes(#"{"error":{"code":400}}"#), layer: layer)
    }

    @Test(
        "non-2xx statuses without an ArcGIS body",
        arguments: [
            (404, FeatureServiceError.Code.notFound, false), (401, .forbidden, false), (403, .forbidden, false),
            (408, .httpStatus, true), (429, .httpStatus, true), (500, .httpStatus, true), (502, .httpStatus, true),
            (503, .httpStatus, true), (504, .httpStatus, true), (400, .httpStatus, false), (501, .httpStatus, false),
            (302, .httpStatus, false),
        ])
    func statuses(status: Int, code: FeatureServiceError.Code, retryable: Bool) {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(status, headers: [:], body: bodyBytes("oops"), layer: DecodingFixture.layerURLWithToken)
        }
        #expect(error.code == code)
        #expect(error.isRetryable == retryable)
        #expect(error.httpStatus == status)
        #expect(error.serviceCode == nil)
        #expect(error.message.contains("HTTP \(status)"))
        #expect(error.message.contains(layer))
        #expect(!error.message.contains("SECRET"))
        #expect(error.retryAfter == nil)
    }

    @Test("a non-2xx status with an ArcGIS body takes the body's code and keeps the status")
    func statusWithErrorBody() {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(
                403, headers: ["Content-Type": "application/json"],
                body: bodyBytes(#"{"error":{"code":499,"message":"Token Required","details":[]}}"#), layer: layer)
        }
        #expect(error.code == .authentication)
        #expect(error.httpStatus == 403)
        #expect(error.serviceCode == 499)
        // Without a code in the body, the status decides.
        let noCode = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(503, headers: [:], body: bodyBytes(#"{"error":{"message":"busy"}}"#), layer: layer)
        }
        #expect(noCode.code == .serviceError)
        #expect(noCode.isRetryable)
        #expect(noCode.httpStatus == 503)
    }

    @Test("an HTML error page names its title")
    func htmlStatusPage() {
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(
                502, headers: [:], body: bodyBytes("<html><head><title>502 Bad\n Gateway</title></head><body>nginx</body></html>"),
                layer: layer)
        }
        #expect(error.code == .httpStatus)
        #expect(error.isRetryable)
        #expect(error.message.contains("\"502 Bad Gateway\""))
    }

    // MARK: Retry-After

    @Test("Retry-After as delta seconds, on any status")
    func retryAfterSeconds() {
        #expect(ArcGISResponse.retryAfter(["Retry-After": "120"]) == .seconds(120))
        #expect(ArcGISResponse.retryAfter(["retry-after": " 0 "]) == .zero)
        #expect(ArcGISResponse.retryAfter([:]) == nil)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "-5"]) == nil)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "soon"]) == nil)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "99999999999999999999999"]) == nil)
        for status in [429, 503, 404] {
            let error = requireDecodingError { () throws(FeatureServiceError) in
                try ArcGISResponse.checkStatus(status, headers: ["Retry-After": "7"], body: [], layer: layer)
            }
            #expect(error.retryAfter == .seconds(7))
        }
        let withBody = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(
                429, headers: ["Retry-After": "3"], body: bodyBytes(#"{"error":{"code":429,"message":"slow down"}}"#), layer: layer)
        }
        #expect(withBody.retryAfter == .seconds(3))
        #expect(withBody.isRetryable)
    }

    @Test("Retry-After as an HTTP-date, in all three forms, relative to now")
    func retryAfterDate() {
        let now: Int64 = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"], now: now) == .seconds(30))
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Sunday, 06-Nov-94 08:51:37 GMT"], now: now) == .seconds(120))
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Sun Nov  6 09:49:37 1994"], now: now) == .seconds(3600))
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Sat, 05 Nov 1994 08:49:37 GMT"], now: now) == .zero)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"], now: 1_445_412_470) == .seconds(10))
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Thu, 29 Feb 2024 00:00:00 GMT"], now: 1_709_164_800) == .zero)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Fri, 30 Feb 2024 00:00:00 GMT"], now: 0) == nil)
        #expect(ArcGISResponse.retryAfter(["Retry-After": "Sun, 06 Nov 1994 25:00:00 GMT"], now: now) == nil)
        let error = requireDecodingError { () throws(FeatureServiceError) in
            try ArcGISResponse.checkStatus(
                503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:37 GMT"], body: [], layer: layer, now: now)
        }
        #expect(error.retryAfter == .seconds(60))
    }

    // MARK: Transport

    @Test("transport errors keep the client's verdict and codes")
    func transport() {
        let timeout = FeatureServiceError(
            transfer: HTTPError(code: .timeout, message: "timed out after 30 s", isRetryable: true, curlCode: 28,
                                curlMessage: "Timeout was reached"),
            layer: TransportRules.arcGIS.errorLayer(DecodingFixture.layerURLWithToken))
        #expect(timeout.code == .transport)
        #expect(timeout.isRetryable)
        #expect(timeout.layer == layer)
        #expect(timeout.details.contains("http error: timeout"))
        #expect(timeout.details.contains("curl code 28: Timeout was reached"))
        #expect(timeout.message.contains(layer))

        let tls = FeatureServiceError(transfer: HTTPError(code: .tls, message: "untrusted", isRetryable: false), layer: layer)
        #expect(tls.code == .transport)
        #expect(!tls.isRetryable)

        let cancelled = FeatureServiceError(transfer: HTTPError(code: .cancelled, message: "cancelled"), layer: layer)
        #expect(cancelled.code == .cancelled)

        let tooLarge = FeatureServiceError(transfer: HTTPError(code: .tooLarge, message: "over 64 MiB"), layer: layer)
        #expect(tooLarge.code == .limitExceeded)
    }

    @Test("URLs are named without query, credentials or trailing slash")
    func normalizedURLs() {
        #expect(ArcGISResponse.normalizedURL(" https://user:pw@host.example/arcgis/rest/services/A/MapServer/3/?token=x#f ")
            == "https://host.example/arcgis/rest/services/A/MapServer/3")
        #expect(ArcGISResponse.normalizedURL("https://host.example/") == "https://host.example")
        #expect(ArcGISResponse.normalizedURL(DecodingFixture.layerURLWithToken) == DecodingFixture.layerURL)
    }
}
