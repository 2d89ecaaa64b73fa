/// What `HEAD` tells about a stored object: enough to check an upload landed whole.
package struct S3ObjectHead: Sendable, Hashable {
    /// The object's size in bytes (`Content-Length`).
    package var size: Int
    /// The entity tag as S3 sends it, quotes included (`"…"`; a multipart object's ends in `-N`).
    package var eTag: String
    package var contentType: String?

    package init(size: Int, eTag: String, contentType: String?) {
        self.size = size
        self.eTag = eTag
        self.contentType = contentType
    }
}

/// One part of a multipart upload, as completing it needs it.
package struct S3CompletedPart: Sendable, Hashable {
    /// 1 to 10,000, in the order the object's bytes follow.
    package var partNumber: Int
    /// The ETag ``S3Client/uploadPart(key:uploadID:partNumber:body:)`` returned.
    package var eTag: String

    package init(partNumber: Int, eTag: String) {
        self.partNumber = partNumber
        self.eTag = eTag
    }
}

/// A multipart upload that was started and neither completed nor aborted: it holds its parts' storage (and
/// costs money) until someone aborts it.
package struct S3MultipartUpload: Sendable, Hashable {
    package var key: String
    package var uploadID: String

    package init(key: String, uploadID: String) {
        self.key = key
        self.uploadID = uploadID
    }
}
