import FeatureQuerySupport
import Testing

/// The byte sets' literal masks against the characters they stand for.
@Suite("ASCII byte sets")
struct ASCIIByteSetTests {
    static func check(_ set: ASCIIByteSet, _ characters: String) {
        let members = Set(characters.utf8)
        for byte in 0...255 {
            #expect(set.contains(UInt8(byte)) == members.contains(UInt8(byte)), "byte \(byte)")
        }
    }

    static let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    @Test func formUnreserved() { Self.check(.formUnreserved, Self.letters + "-._*") }
    @Test func hostName() { Self.check(.hostName, Self.letters + ".-") }
    @Test func queryCharacter() { Self.check(.queryCharacter, Self.letters + "-._~!$&'()*+,;=:@/?") }
}

/// The ASCII helpers against the `Character` and standard-library rules they stand for.
@Suite("ASCII helpers")
struct ASCIITests {
    @Test func hexDigitsRoundTrip() {
        for nibble in UInt8(0)..<16 {
            #expect(ASCII.hexValue(ASCII.hexDigit(nibble)) == nibble)
            #expect(ASCII.hexValue(ASCII.uppercaseHexDigit(nibble)) == nibble)
            #expect(String(UnicodeScalar(ASCII.hexDigit(nibble))) == String(nibble, radix: 16))
            #expect(String(UnicodeScalar(ASCII.uppercaseHexDigit(nibble))) == String(nibble, radix: 16, uppercase: true))
        }
    }

    @Test func classifiersMatchTheStandardLibrary() {
        for byte in UInt8(0)...255 {
            let scalar = UnicodeScalar(byte)
            let character = Character(scalar)
            #expect((ASCII.hexValue(byte) != nil) == (byte < 128 && character.isHexDigit), "byte \(byte)")
            #expect(ASCII.digitValue(byte).map(Int.init) == (byte < 128 ? character.wholeNumberValue : nil), "byte \(byte)")
            let lowered = byte < 128 ? Array(String(character).lowercased().utf8)[0] : byte
            #expect(ASCII.lowercase(byte) == lowered, "byte \(byte)")
            #expect(ASCII.isCharacterWhitespace(byte) == (byte < 128 && character.isWhitespace), "byte \(byte)")
            #expect(ASCII.isWhitespace(byte) == [0x20, 0x09, 0x0A, 0x0D].contains(byte), "byte \(byte)")
        }
    }
}
