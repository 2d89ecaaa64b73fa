@testable import Authentication
import FeatureQuerySupport
import Testing
import Credentials

@Suite("PKCE and SHA-256")
struct PKCETests {
    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test("SHA-256 matches FIPS 180-4's one-block and two-block examples")
    func sha256Vectors() {
        #expect(hex(SHA256.digest(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("the S256 challenge of RFC 7636 appendix B's verifier")
    func rfc7636AppendixB() {
        let octets: [UInt8] = [
            116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88,
            5, 88, 83, 132, 141, 121,
        ]
        let verifier = Base64URL.encode(octets)
        #expect(verifier == "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(hex(SHA256.digest(Array(verifier.utf8))) == "13d31e961a1ad8ec2f16b10c4c982e0876a878ad6df144566ee1894acb70f9c3")
        let pkce = PKCE(verifier: verifier, state: "s")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
    }

    @Test("fresh verifiers are 43 base64url characters and differ; the verifier prints redacted")
    func freshValues() {
        let first = PKCE()
        let second = PKCE()
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(first.verifier.revealed().count == 43)
        #expect(first.verifier.revealed().allSatisfy { alphabet.contains($0) })
        #expect(first.verifier != second.verifier)
        #expect(first.state != second.state)
        #expect(first.challenge == PKCE.challenge(for: first.verifier.revealed()))
        #expect("\(first.verifier)" == "<redacted>")
    }
}
