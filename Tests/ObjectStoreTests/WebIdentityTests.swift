import CurlHTTP
import FeatureQuerySupport
import Foundation
import ObjectStore
import ObjectStoreFixture
import Testing

@Suite("Temporary credentials")
struct WebIdentityTests {
    /// A token file and a role ARN give temporary credentials (with a session token) from
    /// `AssumeRoleWithWebIdentity`, reused while they are fresh, and requests go out signed with them. moto without
    /// signature checking: with checking on it answers the unsigned STS call with a 500.
    @Test func webIdentityCredentialsSignRequests() async throws {
        let moto = try await SharedMoto.openServer()
        let tokenFile = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: tokenFile) }
        try "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6cXVlcnk6d29ya2VyIn0.c2lnbmF0dXJl\n"
            .write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let http = try HTTPClient(logger: ObjectStoreTestSupport.logger)
        let provider = WebIdentityCredentialsProvider(
            configuration: WebIdentityCredentialsProvider.Configuration(tokenFile: tokenFile, roleARN: moto.roleARN),
            sts: STSClient(http: http, endpoint: moto.endpoint))
        let first = try await provider.credentials()
        let second = try await provider.credentials()
        #expect(first.sessionToken?.isEmpty == false)
        #expect(first.accessKeyID != moto.accessKeyID)
        #expect(second == first, "credentials are reused until shortly before they expire")
        let key = ObjectStoreTestSupport.uniqueKey("web-identity")
        let body = Array("from a pod".utf8)
        let size = try await ObjectStoreTestSupport.withClient(endpoint: moto.endpoint, bucket: moto.bucket, credentials: provider) { s3 in
            try await s3.putObject(key: key, body: body)
            return try await s3.headObject(key: key).size
        }
        await http.shutdown()
        #expect(size == body.count)
    }

    /// Temporary credentials (from `AssumeRole`, signed by the user) with their session token, against moto
    /// checking signatures: it matches the token to the role session and verifies the signature; a wrong token
    /// is refused.
    @Test func sessionTokenIsVerified() async throws {
        let moto = try await SharedMoto.server()
        let key = try #require(moto.temporaryAccessKeyID), secret = try #require(moto.temporarySecretAccessKey)
        let token = try #require(moto.temporarySessionToken)
        let object = ObjectStoreTestSupport.uniqueKey("session-token")
        let temporary = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
        let size = try await ObjectStoreTestSupport.withClient(moto, credentials: temporary) { s3 in
            try await s3.putObject(key: object, body: [1, 2, 3, 4])
            return try await s3.headObject(key: object).size
        }
        #expect(size == 4)
        let forged = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token + "x")
        let error = try await ObjectStoreTestSupport.withClient(moto, credentials: forged) { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: object, body: [1]) }
        }
        #expect(error?.code == .accessDenied)
        #expect(error?.s3Code == "InvalidToken")
    }
}
