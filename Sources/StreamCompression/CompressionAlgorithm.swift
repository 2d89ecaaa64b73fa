import CCompressionShims

/// The compression of a stored result's bytes: gzip (zlib) or zstd (libzstd), the two a client can ask for.
///
/// A module of its own (no I/O, no object store) so that the worker's writer and the client library's reader share
/// one codec pair: the client must not depend on the object store bridge to read what the worker wrote.
package enum CompressionAlgorithm: String, Sendable, Hashable, CaseIterable {
    case gzip
    case zstd

    /// zlib's 6 and zstd's 3: each library's default, the usual balance of speed and size for JSON.
    package var defaultLevel: Int32 { self == .gzip ? 6 : 3 }

    /// The C shims' kind.
    var kind: Int32 { self == .gzip ? Int32(QW_COMPRESSION_GZIP.rawValue) : Int32(QW_COMPRESSION_ZSTD.rawValue) }
}

/// Compressing or decompressing failed inside zlib or zstd (StoredResults reports it as its `CompressionFailure`): for compression a broken stream state (any bytes
/// compress), for decompression input that is not a valid stream, or one that ends early.
package struct CodecFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package init(message: String) { self.message = message }
    package var description: String { "compression codec failed: \(message)" }
}
