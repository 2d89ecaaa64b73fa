import FeatureQuerySupport
import Testing

/// RFC 4648's test vectors (§10), in both alphabets the package writes.
@Suite("Base64")
struct Base64Tests {
    static let vectors: [(text: String, padded: String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func standardAlphabetPadded() {
        for vector in Self.vectors { #expect(Base64.encode(Array(vector.text.utf8)) == vector.padded) }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test func urlAlphabetUnpadded() {
        for vector in Self.vectors {
            #expect(Base64URL.encode(Array(vector.text.utf8)) == String(vector.padded.filter { $0 != "=" }))
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }
}
