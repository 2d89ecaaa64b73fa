import Testing
import FeatureService

@testable import ArcGISEngine

/// The engine's cache of parsed target URLs gives what parsing gives, keeps only what parsed, and stays bounded.
@Suite("Parsed layer URLs")
struct ParsedLayerURLsTests {
    @Test("A cached URL is the URL parsing gives, the first time and after")
    func sameAsParsing() throws {
        let cache = ParsedLayerURLs()
        for text in [
            "http://h/arcgis/rest/services/LA/FeatureServer/0", "HTTPS://Host:8443/a/MapServer/?token=x",
            "http://h/arcgis/rest/services/LA/FeatureServer",
        ] {
            let expected = try LayerURL(parsing: text)
            #expect(try cache.layerURL(text) == expected)
            #expect(try cache.layerURL(text) == expected)
        }
        #expect(cache.count == 3)
    }

    @Test("A URL that does not parse fails each time with parsing's error and is not kept")
    func failuresAreNotKept() {
        let cache = ParsedLayerURLs()
        for text in ["ftp://h/a/FeatureServer/0", "http://h/a/FeatureServer/x", "http://h/a/FeatureServer/0/extra"] {
            var expected: FeatureServiceError?
            do { _ = try LayerURL(parsing: text) } catch { expected = error }
            for _ in 0..<2 {
                #expect(throws: FeatureServiceError.self) { try cache.layerURL(text) }
                do { _ = try cache.layerURL(text) } catch { #expect(error.message == expected?.message) }
            }
        }
        #expect(cache.count == 0)
    }

    @Test("The cache holds at most its capacity")
    func bounded() throws {
        let cache = ParsedLayerURLs()
        for index in 0..<(ParsedLayerURLs.capacity * 2 + 5) {
            let text = "http://h/a/FeatureServer/\(index)"
            #expect(try cache.layerURL(text).layerId == index)
            #expect(cache.count <= ParsedLayerURLs.capacity)
        }
        let long = "http://h/" + String(repeating: "a", count: ParsedLayerURLs.maxURLBytes) + "/FeatureServer/1"
        let before = cache.count
        #expect(try cache.layerURL(long).layerId == 1)
        #expect(cache.count == before)
    }
}
