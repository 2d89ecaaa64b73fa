/// A stored layer's `location` (contract 1.3, issue 31's claim check) as the contract writes it: the members read
/// as they are, checked by whoever uses them (the client library makes its public ``StoredResultLocation`` of it).
extension Outcome {
    package struct Location: Sendable, Hashable, Decodable {
        /// `s3://bucket/key`.
        package var url: String
        /// A presigned GET of the object.
        package var httpUrl: String
        /// When ``httpUrl`` stops working (RFC 3339).
        package var expiresAt: String
        /// The stored size (after compression).
        package var bytes: Int
        /// The lowercase hex SHA-256 of the stored bytes.
        package var sha256: String
        package var contentType: String
        /// `gzip` or `zstd`; absent when stored uncompressed.
        package var contentEncoding: String?
        /// How many features the object holds (a features layer)…
        package var features: Int?
        /// …or how many ids (an ids layer).
        package var ids: Int?

        package init(
            url: String, httpUrl: String, expiresAt: String, bytes: Int, sha256: String, contentType: String,
            contentEncoding: String? = nil, features: Int? = nil, ids: Int? = nil
        ) {
            self.url = url
            self.httpUrl = httpUrl
            self.expiresAt = expiresAt
            self.bytes = bytes
            self.sha256 = sha256
            self.contentType = contentType
            self.contentEncoding = contentEncoding
            self.features = features
            self.ids = ids
        }
    }
}
