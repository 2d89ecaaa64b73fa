package import FeatureQuerySupport

/// Mutations on a message's bytes: what a broken producer, a truncating proxy or a bit flip makes of a valid
/// message. Most results are not JSON; some stay valid, which is the point.
package enum ByteMutations {
    /// Fragments worth inserting: JSON punctuation, odd literals and escapes, members the contract knows,
    /// non-ASCII text, and bytes that are not UTF-8 (a lone continuation, an overlong NUL, an encoded
    /// surrogate), NUL and a control character.
    package static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ",", ":", "null", "true", "false", "-", "0", "1e999", "-0", "0.5", "\\", "\\u0000",
        "\\ud800", "\"cancel\":true,", "\"where\":\"1=1\",", "\"extent\":{},", "\"type\":\"ogc\",", "\"layers\":[0],",
        "é", "😀", "  ",
    ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x00], [0x1F]]

    /// One to four edits at random places: a bit flipped, a byte replaced, a token inserted, a run removed,
    /// the tail cut, or a run repeated elsewhere.
    package static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0...6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            case 1 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)], at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...20, using: &random))
                bytes.removeSubrange(position..<end)
            case 4: bytes = Array(bytes.prefix(position))
            case 5 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default: bytes.append(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)])
            }
        }
        return bytes
    }

    /// Bytes that are not UTF-8, for inside a string: a lone continuation byte, an overlong encoding, an
    /// encoded surrogate, a truncated sequence, a code point above U+10FFFF, and 0xFE/0xFF.
    package static let invalidUTF8: [[UInt8]] = [
        [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
    ]

    /// Random bytes, `0...maxLength` of them: uniformly random, or drawn from JSON's own alphabet so that
    /// the parser gets past its first byte more often.
    package static func randomBytes(maxLength: Int, _ random: inout SplitMix64) -> [UInt8] {
        let count = Int.random(in: 0...maxLength, using: &random)
        if Bool.random(using: &random) {
            return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
        let alphabet = Array("{}[]\":,0123456789-+.eEtrufalsn \\u\"ab".utf8)
        return (0..<count).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
    }
}
