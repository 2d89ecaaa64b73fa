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
