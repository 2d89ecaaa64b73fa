import CurlHTTP
import HTTPTestServer
import HTTPTypes
import Hummingbird
import Testing

/// AWS Signature Version 4 by libcurl, seen from a loopback server (moto verifies the signatures themselves in
/// ObjectStoreTests): what a signed request carries, and what the client refuses before sending.
@Suite("AWS Signature Version 4 by libcurl")
struct AWSSigningTests {
    static let signing = HTTPAWSSigning(region: "eu-west-1", service: "s3", accessKeyID: "AKIAEXAMPLE", secretAccessKey: "s3cr3t")

    /// A request header's value as the server got it, or `none`.
    static func header(_ request: Request, _ name: String) -> String {
        request.headers.first { $0.name.canonicalName == name }?.value ?? "none"
    }

    /// The whole URL goes out (its query unchanged), signed with the payload hash header the client adds, the
    /// date libcurl adds, and no `Expect` line among the signed headers.
    @Test func signedRequestCarriesTheSigV4Headers() async throws {
        let answer = try await TestSupport.withServer({ request in
            let authorization = request.headers[.authorization] ?? "none"
            let hash = Self.header(request, "x-amz-content-sha256")
            let date = Self.header(request, "x-amz-date")
            return .text("\(request.uri)\n\(authorization)\n\(hash)\n\(date)")
        }) { server in
            try await TestSupport.withClient { client in
                let request = HTTPRequest(
                    url: server.url("/bucket?prefix=a%2Fb&uploads="), body: nil,
                    options: HTTPRequestOptions(awsSigning: Self.signing))
                return try await client.execute(request).bodyString
            }
        }
        let lines = answer.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "/bucket?prefix=a%2Fb&uploads=")
        let authorization = lines.count > 1 ? lines[1] : ""
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/"))
        #expect(authorization.contains("/eu-west-1/s3/aws4_request, SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature="))
        #expect(!authorization.contains("s3cr3t"))
        #expect(lines.count > 2 && lines[2] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")  // SHA-256 of nothing
        #expect(lines.count > 3 && lines[3].count == 16 && lines[3].hasSuffix("Z"))
    }

    /// A caller's own payload hash (`UNSIGNED-PAYLOAD`) is kept; without one the body's SHA-256 is sent.
    @Test func payloadHashIsTheBodysUnlessGiven() async throws {
        let hashes = try await TestSupport.withServer({ request in
            .text(Self.header(request, "x-amz-content-sha256"))
        }) { server in
            try await TestSupport.withClient { client in
                let options = HTTPRequestOptions(awsSigning: Self.signing)
                let body = try await client.execute(HTTPRequest(method: .put, url: server.url("/b/k"), body: [1, 2, 3], options: options))
                let unsigned = try await client.execute(HTTPRequest(
                    method: .put, url: server.url("/b/k"), headers: ["x-amz-content-sha256": HTTPAWSSigning.unsignedPayload],
                    body: [1, 2, 3], options: options))
                return [body.bodyString, unsigned.bodyString]
            }
        }
        #expect(hashes == ["039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81", "UNSIGNED-PAYLOAD"])
    }

    @Test func regionWithAColonIsRefused() async throws {
        let error = try await TestSupport.withClient { client in
            var signing = Self.signing
            signing.region = "eu:west"
            let request = HTTPRequest(url: "http://127.0.0.1:1/b", options: HTTPRequestOptions(awsSigning: signing))
            return await #expect(throws: HTTPError.self) { try await client.execute(request) }
        }
        #expect(error?.code == .invalidRequest)
    }

    /// Both would write `Authorization`: refused before anything is sent.
    @Test func signingWithHTTPAuthenticationIsRefused() async throws {
        let error = try await TestSupport.withClient { client in
            let rule = HTTPCredentialRule(
                match: .origin("http://127.0.0.1:1"), authentication: HTTPAuthentication(scheme: .basic, username: "u", password: "p"))
            let request = HTTPRequest(url: "http://127.0.0.1:1/b", options: HTTPRequestOptions(credentials: rule, awsSigning: Self.signing))
            return await #expect(throws: HTTPError.self) { try await client.execute(request) }
        }
        #expect(error?.code == .credential)
        #expect(Self.signing.description.contains("s3cr3t") == false)
    }
}
