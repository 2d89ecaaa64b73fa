extension FeatureQueryError.Code {
    /// The store refused the presigned URL after ``StoredResultLocation/expiresAt``: submit the job again for a
    /// fresh location (retryable).
    public static let storedResultExpired = Self(rawValue: "client_stored_result_expired")
    /// The store refused the presigned URL before it expired (a bucket policy, a revoked key, a URL that was
    /// altered): an operator must look (not retryable).
    public static let storedResultForbidden = Self(rawValue: "client_stored_result_forbidden")
    /// The object is gone (the bucket's lifecycle rule deleted it): submit the job again (retryable).
    public static let storedResultMissing = Self(rawValue: "client_stored_result_missing")
    /// The store could not be reached or failed (connection, timeout, 5xx, throttling), after a few attempts
    /// (retryable).
    public static let storedResultUnavailable = Self(rawValue: "client_stored_result_unavailable")
    /// The fetched bytes' SHA-256 is not the location's: the object was replaced or damaged after the worker wrote
    /// it. Nothing read from it may be used; submitting the job again writes it anew (retryable).
    public static let storedResultChecksumMismatch = Self(rawValue: "client_stored_result_checksum_mismatch")
    /// The object's size is not the location's (truncated, or replaced); as a checksum mismatch (retryable).
    public static let storedResultSizeMismatch = Self(rawValue: "client_stored_result_size_mismatch")
    /// The object's bytes, though they match the checksum, are not what the location says (not valid gzip or
    /// zstd, not GeoJSON or NDJSON, another count, a content type or encoding this client does not know): a
    /// worker or client bug, or a newer format (not retryable).
    public static let storedResultMalformed = Self(rawValue: "client_stored_result_malformed")
    /// The stored layer is larger than the caller allowed in memory
    /// (``FeatureQueryClient/resolvingStoredLayers(of:maxBytes:)``): stream it with
    /// ``FeatureQueryClient/storedFeatures(of:)`` or download it with ``FeatureQueryClient/downloadStored(_:to:)``.
    public static let storedResultTooLarge = Self(rawValue: "client_stored_result_too_large")
    /// A stored result was asked of a layer that has no ``QueryOutcome/LayerResult/location``.
    public static let notStored = Self(rawValue: "client_not_stored")
    /// Writing a downloaded stored result to its file failed.
    public static let storedResultFile = Self(rawValue: "client_stored_result_file")
}
