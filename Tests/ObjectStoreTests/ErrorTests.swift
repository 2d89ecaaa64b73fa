import ChildProcessFixture
import CurlHTTP
import HTTPTestServer
import HTTPTypes
import Hummingbird
import ObjectStore
import ObjectStoreFixture
import Synchronization
import Testing

/// What the worker decides by: which failures are retryable (and after how long) and which need an operator.
@Suite("Object store errors")
struct ErrorTests {
    /// Nothing listens on the port: a retryable `store_unavailable`, not fatal.
    @Test func storeDownIsRetryableUnavailable() async throws {
        let port = try ChildProcesses.unusedPort()
        let keys = AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "secret")
        let error = try await ObjectStoreTestSupport.withClient(
            endpoint: "http://127.0.0.1:\(port)", bucket: "results", credentials: StaticCredentialsProvider(keys)
        ) { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: "down", body: [1, 2, 3]) }
        }
        #expect(error?.code == .storeUnavailable)
        #expect(error?.isRetryable == true)
        #expect(error?.isFatal == false)
    }

    /// A store that answers 503 SlowDown with `Retry-After: 7`: retryable, with the delay, S3's code kept. The
    /// request it got was signed by libcurl (SigV4 `Authorization`, the payload hash, the session token).
    @Test func slowDownIsRetryableWithTheDelay() async throws {
        let seen = HeaderLog()
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"
        let error = try await TestHTTPServer.withServer(logger: ObjectStoreTestSupport.logger, handler: { request in
            seen.headers.withLock { headers in
                for field in request.headers { headers[field.name.canonicalName] = field.value }
            }
            return .bytes(Array(xml.utf8), status: .serviceUnavailable, headers: [.retryAfter: "7", .contentType: "application/xml"])
        }) { server in
            let keys = AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "not-sent", sessionToken: "session-token")
            return try await ObjectStoreTestSupport.withClient(
                endpoint: server.baseURL, bucket: "results", credentials: StaticCredentialsProvider(keys)
            ) { s3 in
                await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: "busy", body: [1, 2, 3]) }
            }
        }
        #expect(error?.code == .slowDown)
        #expect(error?.isRetryable == true)
        #expect(error?.retryAfter == .seconds(7))
        #expect(error?.s3Code == "SlowDown")
        #expect(error?.message.contains("Please reduce your request rate.") == true)
        let headers = seen.headers.withLock { $0 }
        let authorization = headers["authorization"] ?? ""
        #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/"))
        #expect(authorization.contains("/us-east-1/s3/aws4_request"))
        #expect(authorization.contains("x-amz-security-token"))
        #expect(!authorization.contains("not-sent"))
        #expect(headers["x-amz-content-sha256"] == "039058c6f2c0cb492c533b0a4d14ef77cc0f78abccced5287d84a1a2011cfb81")  // SHA-256 of 1, 2, 3
        #expect(headers["x-amz-security-token"] == "session-token")
    }

    /// The right key with a wrong secret: moto recomputes the signature and refuses it. Not retryable: fatal.
    @Test func wrongSecretIsAccessDenied() async throws {
        let moto = try await SharedMoto.server()
        let keys = AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey + "x")
        let error = try await ObjectStoreTestSupport.withClient(moto, credentials: keys) { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: "denied", body: [1]) }
        }
        #expect(error?.code == .accessDenied)
        #expect(error?.s3Code == "SignatureDoesNotMatch")
        #expect(error?.isRetryable == false)
        #expect(error?.isFatal == true)
    }

    /// A key moto never issued: refused too (signature checking is on).
    @Test func unknownKeyIsAccessDenied() async throws {
        let moto = try await SharedMoto.server()
        let keys = AWSCredentials(accessKeyID: "AKIANOTAKEY000000000", secretAccessKey: "whatever")
        let error = try await ObjectStoreTestSupport.withClient(moto, credentials: keys) { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: "anything", body: [1]) }
        }
        #expect(error?.code == .accessDenied)
        #expect(error?.s3Code == "InvalidAccessKeyId")
    }

    /// A bucket that does not exist: `no_such_bucket`, fatal (someone must create it or fix the location).
    @Test func missingBucketIsNoSuchBucket() async throws {
        let moto = try await SharedMoto.server()
        let error = try await ObjectStoreTestSupport.withClient(moto, bucket: "no-such-results") { s3 in
            await #expect(throws: ObjectStoreError.self) { try await s3.putObject(key: "lost", body: [1]) }
        }
        #expect(error?.code == .noSuchBucket)
        #expect(error?.isFatal == true)
        #expect(error?.isRetryable == false)
    }
}

/// The headers the fake store saw, shared with its handler.
final class HeaderLog: Sendable {
    let headers = Mutex<[String: String]>([:])
}
