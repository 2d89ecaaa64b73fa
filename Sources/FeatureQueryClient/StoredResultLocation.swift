public import Foundation

/// Where a layer's features or ids are when the worker wrote them to its object store instead of the result
/// message (contract 1.3, the claim check): ``QueryOutcome/LayerResult/location``.
///
/// Everything a reader needs without the worker's credentials: a presigned HTTP GET valid until ``expiresAt``, and
/// the size and SHA-256 of the stored bytes, which ``StoredResultReader`` checks, so a damaged, truncated or
/// replaced object is an error, never a silently different result.
public struct StoredResultLocation: Sendable, Hashable {
    /// The object as `s3://bucket/key`: for tools that hold credentials of the bucket (`aws s3 cp`).
    public var url: String
    /// A presigned GET of the object (no credentials needed), valid until ``expiresAt``.
    public var httpURL: String
    /// When ``httpURL`` stops working; after it, the store answers 403 and the job must be submitted again.
    public var expiresAt: Date
    /// The stored size in bytes (after compression).
    public var bytes: Int
    /// The SHA-256 of the stored bytes (after compression), lowercase hex.
    public var sha256: String
    /// `application/geo+json` (one FeatureCollection; ids: one JSON array) or `application/x-ndjson` (one per line).
    public var contentType: String
    /// `gzip` or `zstd`, `nil` when stored uncompressed.
    public var contentEncoding: String?
    /// How many features the object holds, for a features layer.
    public var features: Int?
    /// How many ids the object holds, for an ids layer.
    public var ids: Int?

    /// A value with these members (tests of code that handles outcomes; a reader of its own topics).
    public init(
        url: String, httpURL: String, expiresAt: Date, bytes: Int, sha256: String, contentType: String,
        contentEncoding: String? = nil, features: Int? = nil, ids: Int? = nil
    ) {
        self.url = url
        self.httpURL = httpURL
        self.expiresAt = expiresAt
        self.bytes = bytes
        self.sha256 = sha256
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.features = features
        self.ids = ids
    }

    /// Whether the object holds ids rather than features.
    public var holdsIds: Bool { ids != nil }

    /// How many features or ids the object holds.
    public var count: Int { features ?? ids ?? 0 }

    /// The layout, read from ``contentType``; `nil` for one this client does not know.
    public var format: QueryJob.StoredFormat? {
        switch contentType.split(separator: ";").first.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) {
        case "application/geo+json", "application/json": .geojson
        case "application/x-ndjson", "application/geo+json-seq", "application/ndjson": .ndjson
        default: nil
        }
    }

    /// The compression, read from ``contentEncoding``; `nil` for one this client does not know.
    public var compression: QueryJob.StoredCompression? {
        guard let contentEncoding else { return QueryJob.StoredCompression.none }
        return QueryJob.StoredCompression(rawValue: contentEncoding.lowercased()).flatMap { $0 == .none ? nil : $0 }
    }
}
