import CurlHTTP
package import Foundation
import Logging
package import ObjectStore
package import StoredResults

/// Objects written to this server the way the worker writes a large result (StoredObjectWriter through
/// StoredObjectUpload and the S3 bridge), and presigned: what the readers' tests (the client library, `query`)
/// fetch back, without a worker that stores.
extension MotoServer {
    /// One stored object: its key, a presigned GET, when that expires, and what the upload says it stored.
    package struct StoredObject: Sendable {
        package var key: String
        package var httpURL: String
        package var expiresAt: Date
        package var stored: StoredObjectUpload.Stored
        /// `s3://bucket/key`.
        package var url: String
    }

    /// Runs `body` with an S3 client of this server's bucket, signing with the user's keys.
    package func withS3Client<T>(_ body: (S3Client) async throws -> T) async throws -> T {
        let logger = Logger(label: "moto-stored-objects") { _ in SwiftLogNoOpLogHandler() }
        let http = try HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(2), timeout: .seconds(60)), logger: logger)
        let result: Result<T, any Error>
        do {
            let client = try S3Client(
                http: http, configuration: S3Client.Configuration(bucket: bucket, region: region, endpoint: try S3Endpoint(url: endpoint)),
                credentials: StaticCredentialsProvider(AWSCredentials(accessKeyID: accessKeyID, secretAccessKey: secretAccessKey)))
            result = .success(try await body(client))
        } catch {
            result = .failure(error)
        }
        await http.shutdown()
        return try result.get()
    }

    /// Stores `items` (features' or ids' JSON) under a new key in `format` and `compression`, in parts of
    /// `partBytes` (S3's 5 MiB smallest by default), and presigns it for `expires`.
    package func storeObject(
        _ items: [[UInt8]], format: StoredObjectFormat, compression: StoredObjectCompression?,
        partBytes: Int = StoredObjectWriter.minimumPartBytes, expires: Duration = .seconds(600), name: String = "stored"
    ) async throws -> StoredObject {
        let key = "fixture/\(name)/\(UUID().uuidString.lowercased())/0.\(format.fileExtension)"
            + (compression.map { ".\($0.fileExtension)" } ?? "")
        return try await withS3Client { s3 in
            guard let writer = StoredObjectWriter(format: format, compression: compression, partBytes: partBytes) else {
                throw StoredObjectUpload.Failure(message: "no digest or compression context")
            }
            let upload = StoredObjectUpload(store: s3, key: key, writer: writer)
            for start in stride(from: 0, to: items.count, by: 1_000) {
                try await upload.append(items[start..<min(start + 1_000, items.count)].map { $0[...] })
            }
            let stored = try await upload.finish()
            let now = Date()
            let url = try await s3.presignedGetURL(key: key, expires: expires, now: now)
            return StoredObject(
                key: key, httpURL: url, expiresAt: now.addingTimeInterval(Double(expires.components.seconds)), stored: stored,
                url: "s3://\(bucket)/\(key)")
        }
    }

    /// Replaces the object at `key` with `bytes` (a presigned URL stays valid: it names the key, not the bytes).
    package func replaceObject(_ key: String, with bytes: [UInt8], contentType: String, contentEncoding: String?) async throws {
        try await withS3Client { s3 in
            _ = try await s3.putObject(key: key, body: bytes, contentType: contentType, contentEncoding: contentEncoding)
        }
    }
}
