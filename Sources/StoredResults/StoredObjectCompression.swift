package import StreamCompression

/// How a stored result is compressed: the object's `Content-Encoding` and the name's extension.
package enum StoredObjectCompression: String, Sendable, Hashable, CaseIterable {
    case gzip
    case zstd

    /// The `Content-Encoding` the object is stored with.
    package var contentEncoding: String { rawValue }
    /// The object name's extra extension.
    package var fileExtension: String { self == .gzip ? "gz" : "zst" }

    /// The codec (module StreamCompression, shared with the client library's reader).
    package var algorithm: CompressionAlgorithm { self == .gzip ? .gzip : .zstd }
}

/// Compression failed inside zlib or zstd; the type lives with the codecs in StreamCompression.
package typealias CompressionFailure = StreamCompression.CompressionFailure
