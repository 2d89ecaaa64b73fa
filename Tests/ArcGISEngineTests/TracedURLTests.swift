import EngineExecution
import Testing

/// What a span may say of a URL: scheme, host, port; never user information, query or fragment.
@Suite("Tracing: URLs on spans")
struct TracedURLTests {
    @Test func schemeHostAndPortOnly() throws {
        let url = try #require(TracedURL("HTTPS://user:secret@GIS.Example.com:8443/arcgis/rest/services/X/FeatureServer/0/query?token=abc#f"))
        #expect(url.scheme == "https")
        #expect(url.host == "gis.example.com")
        #expect(url.port == 8443)
        #expect(TracedURL("http://127.0.0.1/x")?.port == 80)
        #expect(TracedURL("https://h?token=1")?.port == 443)
        #expect(TracedURL("https://h?token=1")?.host == "h")
        let v6 = try #require(TracedURL("http://[::1]:9000/x"))
        #expect(v6.host == "::1")
        #expect(v6.port == 9000)
        #expect(TracedURL("no scheme") == nil)
        #expect(TracedURL("http:///path") == nil)
        // Only the first `://` and the authority count: a URL in the query is not read.
        let nested = try #require(TracedURL("https://h:8443/p?next=http://other:1/x"))
        #expect(nested.host == "h")
        #expect(nested.port == 8443)
        #expect(TracedURL("https://Bücher.Example/x")?.host == "bücher.example")
    }

    @Test func aLayerURLLosesItsQueryAndUserInformation() {
        #expect(TracedURL.withoutQuery("https://u:p@h:1/a/FeatureServer/0?token=abc#x") == "https://h:1/a/FeatureServer/0")
        #expect(TracedURL.withoutQuery("https://h/a/MapServer/2") == "https://h/a/MapServer/2")
        #expect(TracedURL.withoutQuery("https://h/a@b/MapServer/2?k=1") == "https://h/a@b/MapServer/2")
        #expect(TracedURL.withoutQuery("https://h/p?next=https://u:p@x/") == "https://h/p")
        #expect(TracedURL.withoutQuery("relative/path?token=abc") == "relative/path")
    }
}
