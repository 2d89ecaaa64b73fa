/// The object-store operations a stored result needs: S3's multipart upload, a single `PUT` for a small object,
/// and the size of what was stored (checked before the result says `complete`). ObjectStore's S3 client provides
/// them; a unit test of ``StoredObjectUpload`` provides them in memory.
package protocol MultipartObjectStore: Sendable {
    /// Starts an upload of `key`; its upload id.
    func createMultipartUpload(key: String, contentType: String, contentEncoding: String?) async throws -> String
    /// Uploads part `partNumber` (from 1); its ETag.
    func uploadPart(key: String, uploadId: String, partNumber: Int, bytes: [UInt8]) async throws -> String
    /// Makes the object of the parts, in number order.
    func completeMultipartUpload(key: String, uploadId: String, parts: [StoredPartReceipt]) async throws
    /// Drops an upload and the parts it holds (no orphaned upload keeps costing storage).
    func abortMultipartUpload(key: String, uploadId: String) async throws
    /// Stores a small object in one request.
    func putObject(key: String, bytes: [UInt8], contentType: String, contentEncoding: String?) async throws
    /// The stored object's size in bytes.
    func objectSize(key: String) async throws -> Int
}

/// What the store answered for one uploaded part.
package struct StoredPartReceipt: Sendable, Hashable {
    package var partNumber: Int
    package var etag: String

    package init(partNumber: Int, etag: String) {
        self.partNumber = partNumber
        self.etag = etag
    }
}

/// What a store's error says about trying again: a part refused with 503 SlowDown, or lost to a dropped connection,
/// is sent again after the store's `Retry-After` (or a short backoff); a denied request is not.
package protocol StoreRetryAdvice: Error {
    var isRetryable: Bool { get }
    var retryAfter: Duration? { get }
}
