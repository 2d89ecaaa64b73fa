import CurlHTTP
import FeatureQuerySupport
import Foundation
import Logging
import ObjectStore
import ObjectStoreFixture

/// One moto server for the whole test process, started by the first suite that needs it (each test uses keys of
/// its own, so tests share it safely); the watchdog stops it when the process ends.
enum SharedMoto {
    private static let checking = Task<MotoServer, any Error> { try await MotoServer.start(bucket: "results") }
    private static let open = Task<MotoServer, any Error> { try await MotoServer.start(bucket: "results", signatureChecking: false) }

    /// moto verifying every request's signature.
    static func server() async throws -> MotoServer { try await checking.value }

    /// moto without signature checking: for presigned URLs and the unsigned STS call, which moto 5.2.5 answers
    /// with a 500 when checking is on.
    static func openServer() async throws -> MotoServer { try await open.value }
}

enum ObjectStoreTestSupport {
    static let logger = Logger(label: "object-store-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with an S3 client for `moto`'s bucket (or `bucket`) signing with `credentials` (the user's
    /// keys by default), then shuts its HTTP client down.
    static func withClient<T>(
        _ moto: MotoServer, bucket: String? = nil, credentials: AWSCredentials? = nil, logger: Logger = logger,
        _ body: (S3Client) async throws -> T
    ) async throws -> T {
        let keys = credentials ?? AWSCredentials(accessKeyID: moto.accessKeyID, secretAccessKey: moto.secretAccessKey)
        return try await withClient(
            endpoint: moto.endpoint, bucket: bucket ?? moto.bucket, credentials: StaticCredentialsProvider(keys), logger: logger, body)
    }

    static func withClient<T>(
        endpoint: String, bucket: String, credentials: any AWSCredentialsProvider, logger: Logger = logger,
        _ body: (S3Client) async throws -> T
    ) async throws -> T {
        let http = try HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(2), timeout: .seconds(60)), logger: logger)
        let result: Result<T, any Error>
        do {
            let client = try S3Client(
                http: http, configuration: S3Client.Configuration(bucket: bucket, region: "us-east-1", endpoint: try S3Endpoint(url: endpoint)),
                credentials: credentials)
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        await http.shutdown()
        return try result.get()
    }

    /// `count` seeded pseudo-random bytes: different in every part, the same in every run.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var bytes = [UInt8]()
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// Uploads `body` in parts of `partSize` bytes and completes the upload.
    static func uploadInParts(_ s3: S3Client, key: String, body: [UInt8], partSize: Int, contentType: String) async throws -> String {
        let uploadID = try await s3.createMultipartUpload(key: key, contentType: contentType)
        var parts: [S3CompletedPart] = []
        for (index, start) in stride(from: 0, to: body.count, by: partSize).enumerated() {
            let part = Array(body[start..<min(start + partSize, body.count)])
            let eTag = try await s3.uploadPart(key: key, uploadID: uploadID, partNumber: index + 1, body: part)
            parts.append(S3CompletedPart(partNumber: index + 1, eTag: eTag))
        }
        return try await s3.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
    }

    /// A key no other test uses.
    static func uniqueKey(_ name: String) -> String {
        "tests/\(name)-\(UUID().uuidString.prefix(8).lowercased())"
    }
}
