import StreamCompression

/// How a stored result is compressed: the object's `Content-Encoding` and the name's extension.
package enum StoredObjectCompression: String, Sendable, Hashable, CaseIterable {
    case gzip
    case zstd

    /// The `Content-Encoding` the object is stored with.
    package var contentEncoding: String { rawValue }
    /// The object name's extra extension.
    package var fileExtension: String { self == .gzip ? "gz" : "zst" }

    /// The codec (module StreamCompression, shared with the client library's reader).
    var algorithm: CompressionAlgorithm { self == .gzip ? .gzip : .zstd }
}

/// Compression failed inside zlib or zstd (a broken stream state; not an input problem: any bytes compress).
package struct CompressionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package var description: String { "compression failed: \(message)" }
}

/// The writer's streaming compressor: StreamCompression's codec (shared with the client's decompressor), its
/// failures reported as this module's ``CompressionFailure``. Noncopyable: it owns the codec's C stream.
struct StreamCompressor: ~Copyable {
    private var codec: StreamCompression.StreamCompressor

    /// A compressor for `compression` (`nil`: bytes pass through); `nil` when the library cannot make one.
    init?(_ compression: StoredObjectCompression?) {
        guard let codec = StreamCompression.StreamCompressor(compression?.algorithm) else { return nil }
        self.codec = codec
    }

    /// Compresses `input` (with `finishing`: and ends the stream), appending the output to `output`.
    mutating func compress(_ input: [UInt8], finishing: Bool, into output: inout [UInt8]) throws(CompressionFailure) {
        do {
            try codec.compress(input, finishing: finishing, into: &output)
        } catch {
            throw CompressionFailure(message: error.message)
        }
    }
}
