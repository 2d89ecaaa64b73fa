import CurlHTTP
import Foundation
import ObjectStore
import Testing

@Suite("AWS credentials providers")
struct CredentialsProviderTests {
    @Test func environment() async throws {
        let provider = EnvironmentCredentialsProvider(environment: [
            "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
        ])
        let keys = try await provider.credentials()
        #expect(keys == AWSCredentials(accessKeyID: "AKIAENV", secretAccessKey: "env-secret", sessionToken: "env-token"))
        #expect(!keys.description.contains("env-secret") && !keys.description.contains("env-token"))
    }

    @Test func environmentWithoutSecretIsACredentialsError() async {
        let provider = EnvironmentCredentialsProvider(environment: ["AWS_ACCESS_KEY_ID": "AKIAENV"])
        let error = await #expect(throws: ObjectStoreError.self) { try await provider.credentials() }
        #expect(error?.code == .credentials)
        #expect(error?.message.contains("AWS_SECRET_ACCESS_KEY") == true)
    }

    /// The profile `AWS_PROFILE` names, from `AWS_SHARED_CREDENTIALS_FILE`, comments and spacing as the CLI allows.
    @Test func sharedFileProfile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = """
            # written by the AWS CLI
            [default]
            aws_access_key_id = AKIADEFAULT
            aws_secret_access_key = default-secret

            [results]
            aws_access_key_id=AKIARESULTS
            ; a comment
            aws_secret_access_key =results/secret+
            aws_session_token = results-token
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let provider = SharedCredentialsFileProvider(environment: ["AWS_SHARED_CREDENTIALS_FILE": path, "AWS_PROFILE": "results"])
        #expect(try await provider.credentials() == AWSCredentials(accessKeyID: "AKIARESULTS", secretAccessKey: "results/secret+", sessionToken: "results-token"))
        let missing = SharedCredentialsFileProvider(path: path, profile: "absent")
        let error = await #expect(throws: ObjectStoreError.self) { try await missing.credentials() }
        #expect(error?.message.contains("[absent]") == true)
    }

    /// The chain takes the environment's keys first, then web identity, then the file; with none, it says what
    /// it looked for.
    @Test func chainOrder() async throws {
        let http = try HTTPClient(logger: ObjectStoreTestSupport.logger)
        let sts = STSClient(http: http, endpoint: "http://127.0.0.1:1")
        let both = try AWSCredentialsChain.provider(
            environment: ["AWS_ACCESS_KEY_ID": "A", "AWS_SECRET_ACCESS_KEY": "B", "AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn"],
            stsClient: sts)
        #expect(both is EnvironmentCredentialsProvider)
        let web = try AWSCredentialsChain.provider(environment: ["AWS_WEB_IDENTITY_TOKEN_FILE": "/t", "AWS_ROLE_ARN": "arn"], stsClient: sts)
        #expect(web is WebIdentityCredentialsProvider)
        let error = #expect(throws: ObjectStoreError.self) {
            try AWSCredentialsChain.provider(environment: ["HOME": "/nonexistent-home"], stsClient: sts)
        }
        #expect(error?.code == .credentials)
        await http.shutdown()
    }

    /// libcurl's verbose output never shows the signature or the session token.
    @Test func verboseOutputRedactsSigningHeaders() {
        let authorization = CurlVerboseRedaction.redact(
            "Authorization: AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=abcdef")
        #expect(!authorization.contains("abcdef"))
        #expect(!CurlVerboseRedaction.redact("x-amz-security-token: the-token").contains("the-token"))
        #expect(!CurlVerboseRedaction.redact("GET /b/k?X-Amz-Signature=abcdef HTTP/1.1").contains("abcdef"))
    }
}
