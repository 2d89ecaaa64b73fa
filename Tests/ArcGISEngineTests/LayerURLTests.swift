import FeatureService
import Testing

@testable import ArcGISEngine

/// A layer's or service's URL taken apart, and what is not one refused with a typed error.
@Suite("LayerURL")
struct LayerURLTests {
    @Test func layerURLsAreTakenApart() throws {
        let layer = try LayerURL(parsing: "HTTPS://Example.COM:8443/arcgis/rest/services/LA/FeatureServer/0/?token=secret")
        #expect(layer.serviceURL == "https://example.com:8443/arcgis/rest/services/LA/FeatureServer")
        #expect(layer.layerId == 0)
        #expect(layer.origin == "https://example.com:8443")
        #expect(layer.url == "https://example.com:8443/arcgis/rest/services/LA/FeatureServer/0")
        let service = try LayerURL(parsing: "http://h/arcgis/rest/services/USA/MapServer")
        #expect(service.layerId == nil)
        #expect(service.layer(3).url == "http://h/arcgis/rest/services/USA/MapServer/3")
    }

    @Test(arguments: [
        "ftp://h/arcgis/rest/services/A/MapServer/0", "http:///arcgis/rest/services/A/MapServer",
        "http://h/arcgis/rest/services/A/ImageServer", "http://h/arcgis/rest/services/A/MapServer/x",
        "http://h/arcgis/rest/services/A/MapServer/0/query", "http://user@h/arcgis/rest/services/A/MapServer", "",
    ])
    func badURLsAreTypedErrors(_ text: String) {
        #expect(throws: FeatureServiceError.self) { try LayerURL(parsing: text) }
        do { _ = try LayerURL(parsing: text) } catch { #expect(error.code == .invalidURL) }
    }
}
