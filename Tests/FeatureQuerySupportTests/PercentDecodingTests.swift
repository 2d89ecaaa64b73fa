import FeatureQuerySupport
import Testing

@Suite("Percent-decoding of paths, query strings and form bodies")
struct PercentDecodingTests {
    @Test("a path keeps its plus; a form turns it into a space")
    func plus() {
        #expect(PercentDecoding.decode("/a+b/%2Fc", plusAsSpace: false) == "/a+b//c")
        #expect(PercentDecoding.decode("a+b%20c", plusAsSpace: true) == "a b c")
    }

    @Test("multi-byte UTF-8 escapes decode; malformed escapes stay as they are")
    func escapes() {
        #expect(PercentDecoding.decode("caf%C3%A9", plusAsSpace: true) == "café")
        #expect(PercentDecoding.decode("%zz%4", plusAsSpace: true) == "%zz%4")
        #expect(PercentDecoding.decode("100%", plusAsSpace: false) == "100%")
    }

    @Test("form pairs in order: bare names have empty values, empty pairs are skipped, `=` in a value stays")
    func pairs() {
        let pairs = PercentDecoding.formPairs("where=1%3D1&&flag&text=a+b&eq=x=y")
        #expect(pairs.map(\.name) == ["where", "flag", "text", "eq"])
        #expect(pairs.map(\.value) == ["1=1", "", "a b", "x=y"])
        #expect(PercentDecoding.formPairs("").isEmpty)
    }
}
