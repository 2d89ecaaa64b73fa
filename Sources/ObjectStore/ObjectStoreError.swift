/// An error from the object store or on the way to it.
///
/// A struct with an extensible ``Code`` (new codes don't break callers' `switch`es), a message a person can
/// act on, and the two flags the worker decides by: ``isRetryable`` (the same request may succeed later; wait
/// ``retryAfter`` when the store said how long) and ``isFatal`` (nothing will succeed until someone changes the
/// configuration: credentials, bucket, endpoint). Only this module mints errors.
package struct ObjectStoreError: Error, Sendable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The store could not be reached or answered that it is unavailable (connection refused, timeouts,
        /// 500, 503): retryable.
        package static let storeUnavailable = Code("store_unavailable")
        /// The store asks the client to send less (503 SlowDown): retryable, after ``retryAfter`` if given.
        package static let slowDown = Code("slow_down")
        /// The credentials were refused (unknown key, wrong secret, expired token, no permission): fatal.
        package static let accessDenied = Code("access_denied")
        /// The bucket does not exist: fatal.
        package static let noSuchBucket = Code("no_such_bucket")
        /// The object does not exist.
        package static let noSuchKey = Code("no_such_key")
        /// The multipart upload does not exist (completed, aborted, or expired by a lifecycle rule).
        package static let noSuchUpload = Code("no_such_upload")
        /// The body did not arrive as sent (its SHA-256 or MD5 differ): retryable once more.
        package static let checksumMismatch = Code("checksum_mismatch")
        /// The store refused the request as malformed (a part too small, parts out of order).
        package static let invalidRequest = Code("invalid_request")
        /// No usable credentials were found, or a credentials file could not be read: fatal.
        package static let credentials = Code("credentials")
        /// A location, endpoint or key that can't be used: fatal.
        package static let invalidConfiguration = Code("invalid_configuration")
        /// An answer the client could not read (not the XML S3 sends).
        package static let malformedResponse = Code("malformed_response")
        /// Any other failure.
        package static let requestFailed = Code("request_failed")
    }

    package var code: Code
    package var message: String
    package var isRetryable: Bool
    package var isFatal: Bool
    /// How long the store asked the client to wait (`Retry-After`), when it said.
    package var retryAfter: Duration?
    /// The HTTP status, when the store answered.
    package var httpStatus: Int?
    /// S3's own error code (`SlowDown`, `NoSuchBucket`, ...), when its XML body named one.
    package var s3Code: String?

    package init(
        code: Code, message: String, isRetryable: Bool = false, isFatal: Bool = false, retryAfter: Duration? = nil,
        httpStatus: Int? = nil, s3Code: String? = nil
    ) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
        self.isFatal = isFatal
        self.retryAfter = retryAfter
        self.httpStatus = httpStatus
        self.s3Code = s3Code
    }

    package var description: String {
        var text = "ObjectStoreError(\(code)): \(message)"
        if let httpStatus { text += " [HTTP \(httpStatus)\(s3Code.map { " \($0)" } ?? "")]" }
        return text
    }

    static func configuration(_ message: String) -> ObjectStoreError {
        ObjectStoreError(code: .invalidConfiguration, message: message, isFatal: true)
    }

    static func credentials(_ message: String) -> ObjectStoreError {
        ObjectStoreError(code: .credentials, message: message, isFatal: true)
    }
}
