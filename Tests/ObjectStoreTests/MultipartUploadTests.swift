import FeatureQuerySupport
import Foundation
import ObjectStore
import ObjectStoreFixture
import Testing

/// Multipart uploads against moto, read back by three independent clients.
@Suite("Multipart uploads to moto")
struct MultipartUploadTests {
    static let mebibyte = 1024 * 1024

    /// 20 MiB in 8 MiB parts (8 + 8 + 4) to moto checking every signature, completed, then read by boto3 and
    /// the AWS CLI: each gets the very bytes, by size and SHA-256.
    @Test func twentyMebibytesInEightMebibyteParts() async throws {
        let moto = try await SharedMoto.server()
        let body = ObjectStoreTestSupport.bytes(20 * Self.mebibyte, seed: 31)
        let key = ObjectStoreTestSupport.uniqueKey("multipart") + "/result.geojson"
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let uploadID = try await s3.createMultipartUpload(key: key, contentType: "application/geo+json")
            var parts: [S3CompletedPart] = []
            for (index, start) in stride(from: 0, to: body.count, by: 8 * Self.mebibyte).enumerated() {
                let part = Array(body[start..<min(start + 8 * Self.mebibyte, body.count)])
                let eTag = try await s3.uploadPart(key: key, uploadID: uploadID, partNumber: index + 1, body: part)
                #expect(eTag.hasPrefix("\""), "an ETag is quoted: \(eTag)")
                parts.append(S3CompletedPart(partNumber: index + 1, eTag: eTag))
            }
            #expect(parts.count == 3)
            #expect(try await s3.listMultipartUploads(prefix: key).map(\.uploadID) == [uploadID])
            let eTag = try await s3.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
            #expect(eTag.contains("-3"), "a multipart object's ETag counts its parts: \(eTag)")
            let head = try await s3.headObject(key: key)
            #expect(head.size == body.count)
            #expect(head.contentType == "application/geo+json")
            #expect(try await s3.listMultipartUploads(prefix: key).isEmpty)
        }
        let digest = SHA256.hexDigest(body)
        let boto3 = try await moto.readWithBoto3(key: key)
        #expect(boto3.count == body.count)
        #expect(SHA256.hexDigest(boto3) == digest)
        let cli = try await moto.readWithAWSCLI(key: key)
        #expect(cli.count == body.count)
        #expect(SHA256.hexDigest(cli) == digest)
    }

    /// The same 20 MiB object fetched by plain curl through the presigned URL (moto without signature checking:
    /// with checking on it answers 500 to any request without `Authorization`, and it never verifies presigned
    /// signatures), and the URL is exactly the one botocore signs for the same key, time and expiry.
    @Test func presignedURLServesTheObjectToCurl() async throws {
        let moto = try await SharedMoto.openServer()
        let body = ObjectStoreTestSupport.bytes(20 * Self.mebibyte, seed: 32)
        let key = ObjectStoreTestSupport.uniqueKey("presigned") + "/result 1.geojson"
        let now = Date()
        let epoch = Int(now.timeIntervalSince1970)
        let url = try await ObjectStoreTestSupport.withClient(moto) { s3 in
            _ = try await ObjectStoreTestSupport.uploadInParts(s3, key: key, body: body, partSize: 8 * Self.mebibyte, contentType: "application/geo+json")
            return try await s3.presignedGetURL(key: key, expires: .seconds(600), now: Date(timeIntervalSince1970: TimeInterval(epoch)))
        }
        let reference = try await moto.presignWithBotocore(key: key, expiresSeconds: 600, epochSeconds: epoch)
        #expect(url == reference)
        let curl = try await moto.readWithCurl(url: url)
        #expect(curl.count == body.count)
        #expect(SHA256.hexDigest(curl) == SHA256.hexDigest(body))
    }

    /// An upload that is aborted is listed while it runs and gone afterwards: nothing is left to pay for.
    @Test func abortedUploadLeavesNoUploadBehind() async throws {
        let moto = try await SharedMoto.server()
        let prefix = ObjectStoreTestSupport.uniqueKey("aborted") + "/"
        let key = prefix + "partial.geojson"
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let uploadID = try await s3.createMultipartUpload(key: key)
            _ = try await s3.uploadPart(key: key, uploadID: uploadID, partNumber: 1, body: ObjectStoreTestSupport.bytes(5 * Self.mebibyte, seed: 1))
            let running = try await s3.listMultipartUploads(prefix: prefix)
            #expect(running == [S3MultipartUpload(key: key, uploadID: uploadID)])
            try await s3.abortMultipartUpload(key: key, uploadID: uploadID)
            #expect(try await s3.listMultipartUploads(prefix: prefix).isEmpty)
            let error = await #expect(throws: ObjectStoreError.self) { try await s3.headObject(key: key) }
            #expect(error?.code == .noSuchKey)
        }
    }
}
