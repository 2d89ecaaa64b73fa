internal import CCompressionShims

/// How a stored result is compressed: the object's `Content-Encoding` and the name's extension.
package enum StoredObjectCompression: String, Sendable, Hashable, CaseIterable {
    case gzip
    case zstd

    /// The `Content-Encoding` the object is stored with.
    package var contentEncoding: String { rawValue }
    /// The object name's extra extension.
    package var fileExtension: String { self == .gzip ? "gz" : "zst" }

    /// zlib's 6 and zstd's 3: each library's default, the usual balance of speed and size for JSON.
    var level: Int32 { self == .gzip ? 6 : 3 }
    var kind: Int32 { self == .gzip ? Int32(QW_COMPRESSION_GZIP.rawValue) : Int32(QW_COMPRESSION_ZSTD.rawValue) }
}

/// Compression failed inside zlib or zstd (a broken stream state; not an input problem: any bytes compress).
package struct CompressionFailure: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package var description: String { "compression failed: \(message)" }
}

/// A streaming compressor over CCompressionShims (the C pointer stays in this file), or a pass-through without
/// compression, so the writer has one path. Noncopyable: it owns the C stream, which `deinit` frees.
struct StreamCompressor: ~Copyable {
    private let stream: OpaquePointer?
    /// Where each call's output lands before it is appended: one buffer for the stream's life, not one per call.
    private var chunk: [UInt8] = []
    private static let chunkBytes = 256 << 10

    /// A compressor for `compression` (`nil`: bytes pass through); `nil` when the library cannot make one.
    init?(_ compression: StoredObjectCompression?) {
        guard let compression else {
            stream = nil
            return
        }
        guard let stream = qw_compressor_new(compression.kind, compression.level) else { return nil }
        self.stream = stream
    }

    /// Compresses `input` (with `finishing`: and ends the stream), appending the output to `output`.
    mutating func compress(_ input: [UInt8], finishing: Bool, into output: inout [UInt8]) throws(CompressionFailure) {
        guard let stream else {
            output.append(contentsOf: input)
            return
        }
        var offset = 0
        var finished: Int32 = 0
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.chunkBytes) }
        repeat {
            var consumed = 0
            let written = input.withUnsafeBufferPointer { bytes in
                chunk.withUnsafeMutableBufferPointer { out in
                    qw_compressor_run(
                        stream, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, &consumed, out.baseAddress, out.count,
                        finishing ? 1 : 0, &finished)
                }
            }
            guard written >= 0 else { throw CompressionFailure(message: "the compressor refused its input") }
            offset += consumed
            output.append(contentsOf: chunk[0..<written])
            // More to take, or (finishing) the trailer not yet written: go on; otherwise everything is in.
            if offset >= input.count, !finishing || finished != 0 { return }
            if written == 0, consumed == 0 {
                // No progress with room to write: done when only more input could help, broken when finishing.
                guard finishing else { return }
                throw CompressionFailure(message: "the compressor made no progress while ending the stream")
            }
        } while true
    }

    deinit {
        if let stream { qw_compressor_free(stream) }
    }
}
