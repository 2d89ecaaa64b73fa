import FeatureQuerySupport
import Testing

@testable import CurlHTTP

/// The byte-level form encoder against the scalar-by-scalar one it replaced, kept here as the reference.
@Suite("Form encoding matches the reference")
struct FormEncodingTests {
    /// The encoder as it was: one scalar appended at a time, `String(radix:)` per escaped byte.
    static func referenceFormEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count >= 2 ? hex : "0" + hex)
            }
        }
        return result
    }

    /// Pieces that exercise every branch: unreserved runs, space, reserved ASCII, controls, 2- to 4-byte UTF-8.
    static let pieces = [
        "", "a", "Z", "0", "9", "-", ".", "_", "*", "~", " ", "+", "&", "=", "%", "%20", "?", "#", "/", ":", "@",
        "'", "\"", "<", ">", "{", "}", "[", "]", "\\", "|", "^", "`", "\t", "\n", "\r\n", "\u{0}", "\u{7F}",
        "é", "Zürich", "日本", "😀", "👩‍👩‍👧", "e\u{301}", "\u{FEFF}", "UseType = 'Residential'",
        #"{"xmin":-13225000,"ymin":4032000,"spatialReference":{"wkid":3857}}"#, "1=1", "esriGeometryEnvelope",
    ]

    static func randomText(_ random: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<random.below(8) { text += pieces[random.below(pieces.count)] }
        if random.below(4) == 0 {
            // Arbitrary scalars too (surrogates excluded by the initialiser).
            for _ in 0..<random.below(6) {
                if let scalar = Unicode.Scalar(UInt32(random.below(0x11_0000))) { text.unicodeScalars.append(scalar) }
            }
        }
        return text
    }

    @Test("formEncode equals the reference over generated text")
    func encodeMatchesReference() {
        var random = SplitMix64(seed: 1)
        for piece in Self.pieces { #expect(HTTPRequest.formEncode(piece) == Self.referenceFormEncode(piece)) }
        for byte in 0..<128 {
            let text = String(UnicodeScalar(UInt8(byte)))
            #expect(HTTPRequest.formEncode(text) == Self.referenceFormEncode(text), "byte \(byte)")
        }
        for _ in 0..<20_000 {
            let text = Self.randomText(&random)
            let encoded = HTTPRequest.formEncode(text)
            guard encoded == Self.referenceFormEncode(text) else {
                Issue.record("formEncode(\(text.debugDescription)) = \(encoded), expected \(Self.referenceFormEncode(text))")
                return
            }
        }
    }

    @Test("appendFormEncoded appends what formEncode returns, after what the buffer held")
    func appendMatchesEncode() {
        var random = SplitMix64(seed: 2)
        var bytes: [UInt8] = []
        var expected = ""
        for round in 0..<5_000 {
            let text = Self.randomText(&random)
            HTTPRequest.appendFormEncoded(text, to: &bytes)
            expected += Self.referenceFormEncode(text)
            if round % 97 == 0 {
                #expect(bytes == Array(expected.utf8))
                bytes.removeAll(keepingCapacity: random.below(2) == 0)
                expected = ""
            }
        }
        #expect(bytes == Array(expected.utf8))
    }

    @Test("A form POST body is the reference encoding of its fields, joined with &")
    func formPostBody() {
        var random = SplitMix64(seed: 3)
        for _ in 0..<2_000 {
            let fields = (0..<random.below(6)).map { _ in (Self.randomText(&random), Self.randomText(&random)) }
            let request = HTTPRequest.formPost(url: "http://h/q", fields: fields, headers: ["X-A": "1"])
            let reference = fields.map { "\(Self.referenceFormEncode($0.0))=\(Self.referenceFormEncode($0.1))" }
                .joined(separator: "&")
            #expect(request.body == Array(reference.utf8))
            #expect(request.method == .post)
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
            #expect(request.headers["X-A"] == "1")
        }
    }
}
