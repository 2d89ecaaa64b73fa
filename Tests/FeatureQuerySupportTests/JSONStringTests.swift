import FeatureQuerySupport
import Testing

/// The shared escaper against the five it replaced: every output reads back as the original text, it is
/// byte for byte the log writer's (the strictest), and byte for byte the others' wherever they agree (no
/// `\b`, `\f`, DEL, U+2028 or U+2029 in the text).
@Suite("JSON string escaping")
struct JSONStringTests {
    static let samples = [
        "", "plain", "quote \" backslash \\ slash /", "line\nbreak\r\ntab\tbell\u{07}nul\u{0}esc\u{1B}del\u{7F}",
        "Zürich 東京 🚀 e\u{301} \u{2028}\u{2029} end", "\u{08}\u{0C}\u{1F}", "\u{2027}\u{202A}\u{E2}",
        String(repeating: "ä\"\\\n", count: 500),
    ]

    /// Text of random scalars, weighted towards the ones escaping treats specially.
    static func randomText(_ random: inout SplitMix64) -> String {
        let special: [Unicode.Scalar] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{08}", "\u{0C}", "\u{1F}", "\u{7F}",
                                         "\u{2028}", "\u{2029}", "\u{2027}", "é", "\u{301}", "東", "🚀", "a", " ", "/"]
        var text = ""
        for _ in 0..<random.below(24) {
            if random.below(3) == 0, let scalar = Unicode.Scalar(UInt32(random.below(0x3000))) {
                text.unicodeScalars.append(scalar)
            } else {
                text.unicodeScalars.append(special[random.below(special.count)])
            }
        }
        return text
    }

    static func cases() -> [String] {
        var random = SplitMix64(seed: 7)
        return samples + (0..<3_000).map { _ in randomText(&random) }
    }

    static func readBack(_ bytes: [UInt8]) -> String? {
        guard case .string(let text)? = try? ParsedJSON(reading: bytes) else { return nil }
        return text
    }

    @Test func everyOutputReadsBackAsTheText() {
        for text in Self.cases() {
            var bytes: [UInt8] = []
            JSONString.append(text, to: &bytes)
            #expect(Self.readBack(bytes) == text, "\(text.debugDescription)")
            #expect(Self.readBack(Array(ReplacedEscapers.parsedJSON(text).utf8)) == text)
            #expect(Self.readBack(ReplacedEscapers.byteWriter(text)) == text)
            #expect(Self.readBack(ReplacedEscapers.logLine(text)) == text)
        }
    }

    @Test func matchesTheLogWriterByteForByte() {
        for text in Self.cases() {
            var bytes: [UInt8] = []
            JSONString.append(text, to: &bytes)
            #expect(bytes == ReplacedEscapers.logLine(text), "\(text.debugDescription)")
        }
    }

    @Test func matchesTheOthersWhereTheyAgree() {
        let differing: Set<Unicode.Scalar> = ["\u{08}", "\u{0C}", "\u{7F}", "\u{2028}", "\u{2029}"]
        var compared = 0
        for text in Self.cases() where !text.unicodeScalars.contains(where: differing.contains) {
            compared += 1
            let shared = JSONString.quoted(text)
            #expect(shared == ReplacedEscapers.parsedJSON(text), "\(text.debugDescription)")
            #expect(shared == ReplacedEscapers.parsedJSON(text, shortBackspaceAndFormFeed: true))
            #expect(Array(shared.utf8) == ReplacedEscapers.byteWriter(text))
        }
        #expect(compared > 500)
    }

    @Test func stringAndByteFormsAgree() {
        for text in Self.cases() {
            var bytes: [UInt8] = []
            JSONString.append(text, to: &bytes)
            var output = "prefix"
            JSONString.append(text, to: &output)
            #expect(Array(output.utf8) == Array("prefix".utf8) + bytes)
        }
    }

    @Test func writingAValueUsesTheSharedEscaper() {
        let value = ParsedJSON.object(["k\u{2028}": .array([.string("a\u{7F}"), .number(1), .number(0.5), .null, .bool(true)])])
        #expect(value.jsonText == #"{"k\u2028":["a\u007f",1,0.5,null,true]}"#)
    }
}
