import CurlHTTP
import Foundation
import ObjectStore
import Testing

@Suite("Presigned URLs")
struct PresignedURLTests {
    /// AWS's own example (S3 API reference, "Authenticating Requests: Using Query Parameters"): the same key,
    /// secret, time and expiry give the signature AWS documents, byte for byte.
    @Test func awsDocumentedExample() async throws {
        let keys = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
        let url = try await withClient(keys) { s3 in
            try await s3.presignedGetURL(key: "test.txt", expires: .seconds(86400), now: Date(timeIntervalSince1970: 1_369_353_600))
        }
        #expect(
            url == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
                + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    /// Temporary credentials' token is part of the signed query.
    @Test func sessionTokenIsSigned() async throws {
        let keys = AWSCredentials(accessKeyID: "ASIAEXAMPLE", secretAccessKey: "secret", sessionToken: "token/with+chars=")
        let url = try await withClient(keys) { s3 in try await s3.presignedGetURL(key: "a b.json", expires: .seconds(60)) }
        #expect(url.contains("/a%20b.json?"))
        #expect(url.contains("&X-Amz-Security-Token=token%2Fwith%2Bchars%3D&"))
        #expect(!url.contains("secret"))
    }

    @Test func expiryBeyondSevenDaysIsRefused() async throws {
        let keys = AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "secret")
        let error = try await withClient(keys) { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.presignedGetURL(key: "k", expires: .seconds(8 * 24 * 3600)) }
        }
        #expect(error?.code == .invalidConfiguration)
    }

    private func withClient<T>(_ keys: AWSCredentials, _ body: (S3Client) async throws -> T) async throws -> T {
        let http = try HTTPClient(logger: ObjectStoreTestSupport.logger)
        let result: Result<T, any Error>
        do {
            let s3 = try S3Client(
                http: http,
                configuration: S3Client.Configuration(
                    bucket: "examplebucket", region: "us-east-1", endpoint: try S3Endpoint(url: "https://s3.amazonaws.com", pathStyle: false)),
                credentials: StaticCredentialsProvider(keys))
            result = .success(try await body(s3))
        } catch {
            result = .failure(error)
        }
        await http.shutdown()
        return try result.get()
    }
}
