/// Base64url without padding (RFC 4648 §5), as PKCE and the tokens here use it.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(triple >> 18 & 63)])
            output.append(alphabet[Int(triple >> 12 & 63)])
            if remaining > 1 { output.append(alphabet[Int(triple >> 6 & 63)]) }
            if remaining > 2 { output.append(alphabet[Int(triple & 63)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `count` random bytes, base64url-encoded: tokens, codes and refresh tokens.
    package static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return encode((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}
