import COpenSSLShims

/// SHA-256 (FIPS 180-4), for PKCE's S256 code challenge: `login` computes it, the sample portal checks it.
///
/// libcrypto's, through COpenSSLShims: the package links OpenSSL already (libcurl uses it, and the worker
/// checks client certificates with it), so a digest of our own would be code to maintain for nothing. The C
/// call and its pointers stay in this file.
package enum SHA256 {
    /// The number of bytes of a digest.
    package static let digestLength = 32

    /// The 32-byte digest of `message`.
    package static func digest(_ message: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestLength) { digest, initialized in
            message.withUnsafeBufferPointer { bytes in
                qw_sha256(bytes.baseAddress, bytes.count, digest.baseAddress)
            }
            initialized = digestLength
        }
    }
}

/// A SHA-256 over bytes that arrive in pieces: a result written to the object store part by part is hashed as it
/// is cut, so its checksum is known when the upload completes without holding the object.
///
/// Noncopyable: it owns libcrypto's context, which ``finish()`` consumes and frees (`deinit` frees one that is
/// dropped unfinished); being the only owner is also what makes handing it to another task safe.
package struct SHA256Stream: ~Copyable, @unchecked Sendable {
    private let context: UnsafeMutableRawPointer

    /// A stream at its start; `nil` only when libcrypto cannot allocate a context.
    package init?() {
        guard let context = qw_sha256_begin() else { return nil }
        self.context = context
    }

    /// Adds `bytes` to what is hashed.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { qw_sha256_update(context, $0.baseAddress, $0.count) }
    }

    /// Adds `bytes` to what is hashed.
    package mutating func update(_ bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer { qw_sha256_update(context, $0.baseAddress, $0.count) }
    }

    /// The 32-byte digest of everything added; the stream is used up.
    package consuming func finish() -> [UInt8] {
        let context = self.context
        discard self
        return [UInt8](unsafeUninitializedCapacity: SHA256.digestLength) { digest, initialized in
            qw_sha256_end(context, digest.baseAddress)
            initialized = SHA256.digestLength
        }
    }

    deinit {
        qw_sha256_discard(context)
    }
}
