internal import CCompressionShims

/// A streaming compressor over CCompressionShims (the C pointer stays in this file), or a pass-through without
/// compression, so the writer has one path. Noncopyable: it owns the C stream, which `deinit` frees.
package struct StreamCompressor: ~Copyable {
    private let stream: OpaquePointer?
    /// Where each call's output lands before it is appended: one buffer for the stream's life, not one per call.
    private var chunk: [UInt8] = []
    private static let chunkBytes = 256 << 10

    /// A compressor for `algorithm` (`nil`: bytes pass through) at `level` (the algorithm's default when `nil`);
    /// `nil` when the library cannot make one.
    package init?(_ algorithm: CompressionAlgorithm?, level: Int32? = nil) {
        guard let algorithm else {
            stream = nil
            return
        }
        guard let stream = qw_compressor_new(algorithm.kind, level ?? algorithm.defaultLevel) else { return nil }
        self.stream = stream
    }

    /// Compresses `input` (with `finishing`: and ends the stream), appending the output to `output`.
    package mutating func compress(_ input: [UInt8], finishing: Bool, into output: inout [UInt8]) throws(CodecFailure) {
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
            guard written >= 0 else { throw CodecFailure(message: "the compressor refused its input") }
            offset += consumed
            output.append(contentsOf: chunk[0..<written])
            // More to take, or (finishing) the trailer not yet written: go on; otherwise everything is in.
            if offset >= input.count, !finishing || finished != 0 { return }
            if written == 0, consumed == 0 {
                // No progress with room to write: done when only more input could help, broken when finishing.
                guard finishing else { return }
                throw CodecFailure(message: "the compressor made no progress while ending the stream")
            }
        } while true
    }

    deinit {
        if let stream { qw_compressor_free(stream) }
    }
}
