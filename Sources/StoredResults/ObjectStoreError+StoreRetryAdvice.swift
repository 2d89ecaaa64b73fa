import ObjectStore

/// The S3 bridge's errors say whether and when to try again.
extension ObjectStoreError: StoreRetryAdvice {}
