import FeatureQuerySupport
import Testing

/// UTF-8 validation against the standard library's decoder, on the edge cases of Unicode's table of
/// well-formed sequences and on random bytes.
@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    static func firstInvalid(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
    }

    @Test(arguments: [
        ([UInt8](), nil), ([0x41], nil), (Array("é東🚀".utf8), nil), ([0x7F], nil),
        ([0xC2, 0x80], nil), ([0xDF, 0xBF], nil), ([0xE0, 0xA0, 0x80], nil), ([0xED, 0x9F, 0xBF], nil),
        ([0xEE, 0x80, 0x80], nil), ([0xF0, 0x90, 0x80, 0x80], nil), ([0xF4, 0x8F, 0xBF, 0xBF], nil),
        ([0x80], 0), ([0xBF], 0), ([0xC0, 0x80], 0), ([0xC1, 0xBF], 0),  // continuation alone, overlong 2-byte
        ([0xE0, 0x80, 0x80], 0), ([0xE0, 0x9F, 0xBF], 0),  // overlong 3-byte
        ([0xED, 0xA0, 0x80], 0), ([0xED, 0xBF, 0xBF], 0),  // UTF-16 surrogates
        ([0xF0, 0x80, 0x80, 0x80], 0), ([0xF0, 0x8F, 0xBF, 0xBF], 0),  // overlong 4-byte
        ([0xF4, 0x90, 0x80, 0x80], 0), ([0xF5, 0x80, 0x80, 0x80], 0), ([0xFF], 0),  // above U+10FFFF
        ([0x41, 0xC2], 1), ([0x41, 0xE2, 0x82], 1), ([0xF0, 0x9F, 0x9A], 0),  // truncated at the end
        ([0xE2, 0x41, 0x82], 0), ([0xF0, 0x9F, 0x41, 0x80], 0),  // a continuation byte missing
        ([0x61, 0x62, 0xC3, 0xA9, 0x80], 4),
    ] as [([UInt8], Int?)])
    func edgeCases(_ bytes: [UInt8], _ expected: Int?) {
        #expect(Self.firstInvalid(bytes) == expected)
        #expect((expected == nil) == (String(validating: bytes, as: UTF8.self) != nil))
    }

    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var random = SplitMix64(seed: 3)
        let alphabet: [UInt8] = [0x41, 0x7F, 0x80, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0x9F, 0xA0, 0x8F, 0x90]
        for _ in 0..<20_000 {
            let bytes = (0..<random.below(7)).map { _ in alphabet[random.below(alphabet.count)] }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            #expect((Self.firstInvalid(bytes) == nil) == valid, "\(bytes)")
            if let offset = Self.firstInvalid(bytes) {
                #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil, "the prefix before \(offset) of \(bytes)")
            }
        }
    }
}
