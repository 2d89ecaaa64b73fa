import COpenSSLShims

/// HMAC-SHA256 (RFC 2104), for AWS Signature Version 4: the object store's presigned URLs are signed in Swift
/// (libcurl signs only the requests it sends itself), with a key derived by four HMACs of the secret.
///
/// libcrypto's, through COpenSSLShims, like ``SHA256``: OpenSSL is linked anyway. The C call stays in this file.
package enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`. libcrypto failing (out of memory) is a
    /// programming-level failure here; the code is then all zeros, which no server accepts.
    package static func authenticationCode(key: [UInt8], message: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: SHA256.digestLength) { digest, initialized in
            key.withUnsafeBufferPointer { keyBytes in
                message.withUnsafeBufferPointer { bytes in
                    _ = qw_hmac_sha256(keyBytes.baseAddress, keyBytes.count, bytes.baseAddress, bytes.count, digest.baseAddress)
                }
            }
            initialized = SHA256.digestLength
        }
    }
}

extension SHA256 {
    /// The digest as 64 lowercase hexadecimal digits: how AWS Signature Version 4 writes payload hashes
    /// (`x-amz-content-sha256`) and signatures.
    package static func hexDigest(_ message: [UInt8]) -> String {
        hex(digest(message))
    }

    /// `bytes` as lowercase hexadecimal digits, two per byte (``ASCII/hexString(_:)``).
    package static func hex(_ bytes: [UInt8]) -> String {
        ASCII.hexString(bytes)
    }
}
