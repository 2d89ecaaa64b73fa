import CCompressionShims

/// A streaming decompressor over CCompressionShims, the reading half of ``StreamCompressor`` (or a pass-through
/// without compression): a client fetching a stored result decompresses each chunk as it arrives, so a result of
/// gigabytes never has to be held compressed or whole. Noncopyable: it owns the C stream, which `deinit` frees.
package struct StreamDecompressor: ~Copyable {
    private let stream: OpaquePointer?
    private var chunk: [UInt8] = []
    private var ended = false
    private static let chunkBytes = 256 << 10

    /// A decompressor for `algorithm` (`nil`: bytes pass through); `nil` when the library cannot make one.
    package init?(_ algorithm: CompressionAlgorithm?) {
        guard let algorithm else {
            stream = nil
            return
        }
        guard let stream = qw_decompressor_new(algorithm.kind) else { return nil }
        self.stream = stream
    }

    /// Decompresses the next piece of the stream (cut anywhere), appending what it decodes to `output`.
    ///
    /// Throws when the bytes are not a valid stream, or when bytes follow the stream's end (a stored object is one
    /// stream: anything after it means the object is not what the worker wrote).
    package mutating func decompress(_ input: ArraySlice<UInt8>, into output: inout [UInt8]) throws(CodecFailure) {
        guard let stream else {
            output.append(contentsOf: input)
            return
        }
        if chunk.isEmpty { chunk = [UInt8](repeating: 0, count: Self.chunkBytes) }
        var offset = 0
        var written = 0
        repeat {
            if ended {
                guard offset >= input.count else { throw CodecFailure(message: "bytes follow the end of the compressed stream") }
                return
            }
            var consumed = 0
            var finished: Int32 = 0
            written = input.withUnsafeBufferPointer { bytes in
                chunk.withUnsafeMutableBufferPointer { out in
                    qw_decompressor_run(
                        stream, bytes.baseAddress.map { $0 + offset }, bytes.count - offset, &consumed, out.baseAddress, out.count,
                        &finished)
                }
            }
            guard written >= 0 else { throw CodecFailure(message: "the bytes are not a valid compressed stream") }
            offset += consumed
            ended = finished != 0
            output.append(contentsOf: chunk[0..<written])
            if written == 0, consumed == 0, offset < input.count, !ended {
                throw CodecFailure(message: "the decompressor made no progress")
            }
            // Go on while input is left, or while the output filled the chunk (the library may hold more).
        } while offset < input.count || written == chunk.count
    }

    /// Checks that the stream ended: a stream cut short (a truncated object) decodes without error up to its cut.
    package func finish() throws(CodecFailure) {
        guard stream == nil || ended else { throw CodecFailure(message: "the compressed stream ends early") }
    }

    deinit {
        if let stream { qw_decompressor_free(stream) }
    }
}
