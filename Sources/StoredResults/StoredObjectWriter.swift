import FeatureQuerySupport

/// Turns a result's features, as the engine's pages deliver them, into the parts of a multipart upload: framed as
/// ``StoredObjectFormat`` says, cut at the part size, hashed and counted on the way, so the worker holds one part
/// of a result that may be gigabytes, and knows its size and SHA-256 when the last part is cut.
///
/// A value with no I/O: the owner uploads the ``Part``s it returns, in order, and completes the upload with
/// ``Completion``. Noncopyable, since it owns the running digest.
package struct StoredObjectWriter: ~Copyable {
    /// One part of the upload: S3 numbers them from 1; every part but the last is at least the part size.
    package struct Part: Sendable, Hashable {
        package var number: Int
        package var bytes: [UInt8]
    }

    /// What the object holds, for the outcome's `location` and the check after the upload.
    package struct Summary: Sendable, Hashable {
        /// The object's size in bytes.
        package var bytes: Int
        /// The hex SHA-256 of the object's bytes.
        package var sha256: String
        /// How many features it holds.
        package var features: Int
        /// How many parts were cut (1 for an object written in one piece).
        package var parts: Int
    }

    /// How the object is finished.
    package enum Completion: Sendable {
        /// No part was cut: the whole object is small enough for one `PUT`.
        case single([UInt8], Summary)
        /// The last part (possibly smaller than the part size), after which the multipart upload is completed.
        case multipart(last: Part, Summary)
    }

    /// S3's smallest part (except the last) and most parts per upload.
    package static let minimumPartBytes = 5 << 20
    package static let maximumParts = 10_000
    /// The default part size; after ``growthAfterParts`` parts they are ``grownPartBytes``, so an upload of 8 MiB
    /// parts can still hold 584 GB within S3's 10,000 parts.
    package static let defaultPartBytes = 8 << 20
    package static let grownPartBytes = 64 << 20
    package static let growthAfterParts = 1_000

    package let format: StoredObjectFormat
    package let compression: StoredObjectCompression?
    private let partBytes: Int
    /// The object's bytes not yet cut into a part (compressed, when compressing).
    private var buffer: [UInt8]
    /// Framed bytes not yet compressed: compressing each feature on its own would cost a call per feature.
    private var staged: [UInt8] = []
    private var compressor: StreamCompressor
    private var hasher: SHA256Stream
    private var cutParts = 0
    private var writtenBytes = 0
    private var features = 0

    /// How many framed bytes are staged before they are compressed.
    static let compressionBatch = 256 << 10

    /// A writer for `format`, compressed with `compression` (none: `nil`), cutting parts of `partBytes` (at least
    /// S3's 5 MiB, except in tests, which pass `allowingSmallParts`). `nil` when libcrypto cannot make a digest
    /// context or the compression library a stream.
    package init?(
        format: StoredObjectFormat, compression: StoredObjectCompression? = nil,
        partBytes: Int = StoredObjectWriter.defaultPartBytes, allowingSmallParts: Bool = false
    ) {
        guard let hasher = SHA256Stream(), let compressor = StreamCompressor(compression) else { return nil }
        self.format = format
        self.compression = compression
        self.partBytes = allowingSmallParts ? max(1, partBytes) : max(Self.minimumPartBytes, partBytes)
        self.hasher = hasher
        self.compressor = compressor
        buffer = []
        buffer.reserveCapacity(self.partBytes + 64 << 10)
        staged = format.head
    }

    /// The part size for the next part cut.
    private var currentPartBytes: Int {
        cutParts < Self.growthAfterParts ? partBytes : max(partBytes, Self.grownPartBytes)
    }

    /// Adds one feature's JSON; returns a part when the object's bytes reached the part size.
    package mutating func append(feature json: some Collection<UInt8>) throws(CompressionFailure) -> Part? {
        if features > 0 { staged.append(contentsOf: format.separator) }
        staged.append(contentsOf: json)
        staged.append(contentsOf: format.terminator)
        features += 1
        // Uncompressed bytes go straight on; compressed ones in batches.
        guard compression == nil || staged.count >= Self.compressionBatch else { return nil }
        try compressor.compress(staged, finishing: false, into: &buffer)
        staged.removeAll(keepingCapacity: true)
        guard buffer.count >= currentPartBytes else { return nil }
        return cut()
    }

    /// How many parts were cut so far.
    package var partsCut: Int { cutParts }

    /// Ends the object: the tail is written, and what is left is the last part, or the whole object.
    package consuming func finish() throws(CompressionFailure) -> Completion {
        staged.append(contentsOf: format.tail)
        try compressor.compress(staged, finishing: true, into: &buffer)
        let rest = buffer
        hasher.update(rest)
        let total = writtenBytes + rest.count
        let parts = cutParts
        let count = features
        let digest = hasher.finish()
        let summary = Summary(bytes: total, sha256: SHA256.hex(digest), features: count, parts: max(1, parts + 1))
        if parts == 0 { return .single(rest, Summary(bytes: total, sha256: summary.sha256, features: count, parts: 1)) }
        return .multipart(last: Part(number: parts + 1, bytes: rest), summary)
    }

    private mutating func cut() -> Part {
        let bytes = buffer
        buffer = []
        buffer.reserveCapacity(currentPartBytes + 64 << 10)
        hasher.update(bytes)
        writtenBytes += bytes.count
        cutParts += 1
        return Part(number: cutParts, bytes: bytes)
    }
}
