/// Where a request's large layers go instead of the published result: an object store (the claim check of
/// issue 31). The worker makes one per request that may store (`delivery` `store` or `auto` with a store
/// configured) and hands it to the engines on the request's ``ResultBudget``, as it hands them the progress sink:
/// no new parameter crosses the seam, and an engine without a store on its budget collects as it always did.
///
/// An engine that streams a layer opens a ``StoredLayerWriter`` for it, appends each page's new features (after
/// deduplication and any re-check, so only what the result would have held is stored), and finishes it: the
/// layer's selection is then ``LayerSelection/stored(_:)``. The features are stored in the order they arrived
/// (by page), not re-sorted: a stored layer is a file to read through, not a list to join.
package protocol ResultStore: Sendable {
    /// When a layer's features go to the store.
    var delivery: StoreDelivery { get }
    /// Starts the object of `layer`; `kind` says what it holds. The store names the object by the request and
    /// the layer's identity (its URL, layer id or collection), never by arrival order, so a redelivered request
    /// writes the same key (overwrites, never duplicates).
    ///
    /// Throws a ``FeatureServiceError`` the layer fails with (`store_unavailable`, `store_denied`).
    func open(_ layer: ProgressLayer, kind: StoredSelection.Kind) async throws(FeatureServiceError)
        -> any StoredLayerWriter
}

/// When a request's layers are stored rather than published inline.
package enum StoreDelivery: Sendable, Hashable {
    /// Every features or ids layer is stored, whatever its size (`delivery: store`).
    case always
    /// A layer is stored once what the engine holds of it passes `thresholdBytes` (`delivery: auto`): the
    /// engine collects as usual and, at the page that crosses the threshold, opens a writer, hands it what it
    /// holds and streams the rest. A layer below the threshold is published exactly as without a store.
    case above(thresholdBytes: Int)
}

/// One layer's object being written. Calls come from the layer's page loop, one at a time and in order.
package protocol StoredLayerWriter: Sendable {
    /// Appends features (each one GeoJSON Feature object) or ids (each one JSON value). Suspends while the
    /// store is behind (at most a few parts in memory), which is what bounds a streamed layer's memory.
    func append(_ items: [ArraySlice<UInt8>]) async throws(FeatureServiceError)
    /// Completes the object, checks what the store holds against what was written, and says where it is.
    func finish() async throws(FeatureServiceError) -> StoredSelection
    /// Abandons the object (the layer failed, was cancelled or superseded): nothing incomplete is left behind.
    /// Safe to call after a failure and more than once.
    func abort() async
}

/// A layer whose selection is in the object store: the result carries where, not what.
package struct StoredSelection: Sendable, Hashable {
    /// What the object holds.
    package enum Kind: String, Sendable, Hashable {
        case features
        case ids
    }

    package var kind: Kind
    /// The object's `s3://bucket/key`.
    package var url: String
    /// A presigned HTTPS (or the endpoint's scheme) GET of the object, valid until ``expiresAt``.
    package var httpURL: String
    /// When ``httpURL`` stops working, in milliseconds since the epoch.
    package var expiresAt: Int64
    /// The stored size in bytes (after compression), as the store confirmed it.
    package var bytes: Int
    /// The SHA-256 of the stored bytes, lowercase hex.
    package var sha256: String
    package var contentType: String
    /// `gzip`, `zstd`, or `nil` when stored uncompressed.
    package var contentEncoding: String?
    /// How many features or ids the object holds.
    package var count: Int

    package init(
        kind: Kind, url: String, httpURL: String, expiresAt: Int64, bytes: Int, sha256: String, contentType: String,
        contentEncoding: String?, count: Int
    ) {
        self.kind = kind
        self.url = url
        self.httpURL = httpURL
        self.expiresAt = expiresAt
        self.bytes = bytes
        self.sha256 = sha256
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.count = count
    }
}

extension FeatureServiceError.Code {
    /// The object store could not be reached or failed while writing (retryable: the request can run again).
    package static let storeUnavailable = Self("store_unavailable")
    /// The object store refused the worker's credentials or the bucket does not exist (an operator must act).
    package static let storeDenied = Self("store_denied")
}
