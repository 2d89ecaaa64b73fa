import EngineExecution
import Testing

/// RFC 3986 §5.4's examples, and origins.
@Suite("URI references")
struct URIReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"),
        (";x", "http://a/b/c/;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../g", "http://a/g"),
        ("../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
    ])
    func resolution(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test func origins() {
        #expect(URIReference.origin(of: "HTTP://Example.COM/a") == "http://example.com:80")
        #expect(URIReference.origin(of: "http://example.com:80/b?c") == "http://example.com:80")
        #expect(URIReference.origin(of: "https://user:pw@example.com/") == "https://example.com:443")
        #expect(URIReference.origin(of: "http://127.0.0.1:8080/x") != URIReference.origin(of: "http://127.0.0.1:8081/x"))
        #expect(URIReference.origin(of: "/relative") == nil)
    }
}
