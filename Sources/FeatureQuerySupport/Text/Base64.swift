/// Base64 (RFC 4648 §4): the standard alphabet with padding, as the contract writes message keys that are
/// not UTF-8.
package enum Base64 {
    private static let standardAlphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        encode(bytes, alphabet: standardAlphabet, padded: true)
    }

    /// The one encoder behind both alphabets: each 3 bytes become 4 characters; a last group of 1 or 2 bytes
    /// becomes 2 or 3, then `=` up to 4 when `padded`.
    static func encode(_ bytes: [UInt8], alphabet: [UInt8], padded: Bool) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 63)])
            output.append(alphabet[Int(triple >> 12 & 63)])
            if remaining > 1 {
                output.append(alphabet[Int(triple >> 6 & 63)])
            } else if padded {
                output.append(UInt8(ascii: "="))
            }
            if remaining > 2 {
                output.append(alphabet[Int(triple & 63)])
            } else if padded {
                output.append(UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }
}

/// Base64url without padding (RFC 4648 §5), as PKCE and the tokens here use it.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        Base64.encode(bytes, alphabet: alphabet, padded: false)
    }

    /// `count` random bytes, base64url-encoded: tokens, codes and refresh tokens.
    package static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
