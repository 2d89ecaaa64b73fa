import ObjectStore

/// The S3 bridge as the store a ``StoredObjectUpload`` writes to (`createMultipartUpload` is S3Client's own).
extension S3Client: MultipartObjectStore {
    package func uploadPart(key: String, uploadId: String, partNumber: Int, bytes: [UInt8]) async throws -> String {
        try await uploadPart(key: key, uploadID: uploadId, partNumber: partNumber, body: bytes)
    }

    package func completeMultipartUpload(key: String, uploadId: String, parts: [StoredPartReceipt]) async throws {
        try await completeMultipartUpload(
            key: key, uploadID: uploadId, parts: parts.map { S3CompletedPart(partNumber: $0.partNumber, eTag: $0.etag) })
    }

    package func abortMultipartUpload(key: String, uploadId: String) async throws {
        try await abortMultipartUpload(key: key, uploadID: uploadId)
    }

    package func putObject(key: String, bytes: [UInt8], contentType: String, contentEncoding: String?) async throws {
        try await putObject(key: key, body: bytes, contentType: contentType, contentEncoding: contentEncoding)
    }

    package func objectSize(key: String) async throws -> Int {
        try await headObject(key: key).size
    }
}
