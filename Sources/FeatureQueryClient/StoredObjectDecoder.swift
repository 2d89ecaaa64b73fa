import FeatureQuerySupport
import Foundation
import StreamCompression

/// Reads a stored object as its bytes arrive, in chunks cut anywhere: counts and hashes the stored bytes,
/// decompresses them, and hands the decoded bytes on. No I/O, so every chunk boundary can be tested.
///
/// The checks that make a fetched object trustworthy are here: more bytes than the location says fail at once,
/// fewer, or another SHA-256, fail in ``finish()``; a compressed stream that is invalid or ends early fails too.
/// Noncopyable: it owns the digest and the decompressor's C stream.
struct StoredObjectDecoder: ~Copyable {
    let location: StoredResultLocation
    private var hasher: SHA256Stream
    private var decompressor: StreamDecompressor
    private(set) var receivedBytes = 0

    /// A decoder for `location`'s object; throws for a content encoding this client does not know.
    init(_ location: StoredResultLocation) throws(FeatureQueryError) {
        guard let compression = location.compression else {
            throw FeatureQueryError(
                .storedResultMalformed, "the stored result \(location.url) has content encoding '\(location.contentEncoding ?? "")', which this client cannot decode")
        }
        let algorithm: CompressionAlgorithm? = switch compression {
        case .none: nil
        case .gzip: .gzip
        case .zstd: .zstd
        }
        guard let hasher = SHA256Stream(), let decompressor = StreamDecompressor(algorithm) else {
            throw FeatureQueryError(.storedResultMalformed, "no digest or decompression context could be made (out of memory?)")
        }
        self.location = location
        self.hasher = hasher
        self.decompressor = decompressor
    }

    /// Why decoding stopped, reported by ``finish()`` only after the digest: damaged bytes usually fail to
    /// decompress or parse before the end, and must still be reported as what they are (a checksum mismatch).
    private(set) var deferredFailure: FeatureQueryError?

    /// Takes the next stored bytes; appends what they decode to to `decoded` (nothing once decoding failed).
    mutating func consume(_ chunk: ArraySlice<UInt8>, into decoded: inout [UInt8]) throws(FeatureQueryError) {
        receivedBytes += chunk.count
        guard receivedBytes <= location.bytes else { throw sizeMismatch(atLeast: receivedBytes) }
        hasher.update(chunk)
        guard deferredFailure == nil else { return }
        do {
            try decompressor.decompress(chunk, into: &decoded)
        } catch {
            deferFailure(FeatureQueryError(
                .storedResultMalformed, "the stored result \(location.url) is not valid \(location.contentEncoding ?? "data"): \(error.message)"))
        }
    }

    /// Stops decoding for `failure` (the splitter's too), to be reported by ``finish()`` if the digest matches.
    mutating func deferFailure(_ failure: FeatureQueryError) {
        if deferredFailure == nil { deferredFailure = failure }
    }

    /// Ends the object: the size, the SHA-256, then any decoding failure and the compressed stream's end.
    consuming func finish() throws(FeatureQueryError) {
        guard receivedBytes == location.bytes else { throw sizeMismatch(atLeast: receivedBytes) }
        let digest = SHA256.hex(hasher.finish())
        guard digest == location.sha256 else {
            throw FeatureQueryError(
                .storedResultChecksumMismatch,
                "the stored result \(location.url) has SHA-256 \(digest), its location says \(location.sha256): the object was "
                    + "replaced or damaged after the worker wrote it; nothing read from it may be used (submit the job again)",
                isRetryable: true)
        }
        if let deferredFailure { throw deferredFailure }
        do {
            try decompressor.finish()
        } catch {
            throw FeatureQueryError(.storedResultMalformed, "the stored result \(location.url) \(error.message)")
        }
    }

    private func sizeMismatch(atLeast received: Int) -> FeatureQueryError {
        FeatureQueryError(
            .storedResultSizeMismatch,
            "the stored result \(location.url) has \(received > location.bytes ? "more than " : "")\(received) bytes, its location says "
                + "\(location.bytes): the object was replaced or truncated (submit the job again)",
            isRetryable: true)
    }
}
