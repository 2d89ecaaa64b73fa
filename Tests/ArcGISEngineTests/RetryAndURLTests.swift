import Testing

@testable import ArcGISEngine

@Suite("RetryBackoff and LayerURL")
struct RetryAndURLTests {
    private let policy = ArcGISEngineConfiguration.RetryPolicy(
        maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(250), maxRetryAfter: .seconds(2))

    @Test func backoffDoublesUpToTheCapWithFullJitter() {
        let backoff = RetryBackoff(policy: policy)
        let retryable = ArcGISError(.httpStatus, "503", layer: "x", isRetryable: true)
        #expect(backoff.delay(afterFailure: retryable, retry: 1, random: { $0.upperBound }) == .milliseconds(100))
        #expect(backoff.delay(afterFailure: retryable, retry: 2, random: { $0.upperBound }) == .milliseconds(200))
        #expect(backoff.delay(afterFailure: retryable, retry: 3, random: { $0.upperBound }) == .milliseconds(250))
        #expect(backoff.delay(afterFailure: retryable, retry: 3, random: { $0.lowerBound }) == .zero)
        #expect(backoff.delay(afterFailure: retryable, retry: 4, random: { $0.upperBound }) == nil)
    }

    @Test func retryAfterIsHonouredUpToItsCap() {
        let backoff = RetryBackoff(policy: policy)
        var error = ArcGISError(.httpStatus, "429", layer: "x", isRetryable: true, retryAfter: .seconds(1))
        #expect(backoff.delay(afterFailure: error, retry: 1) == .seconds(1))
        error.retryAfter = .seconds(60)
        #expect(backoff.delay(afterFailure: error, retry: 1) == nil)
    }

    @Test func nonRetryableErrorsAreNotRetried() {
        let backoff = RetryBackoff(policy: policy)
        #expect(backoff.delay(afterFailure: ArcGISError(.invalidQuery, "bad", layer: "x"), retry: 1) == nil)
    }

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
        #expect(throws: ArcGISError.self) { try LayerURL(parsing: text) }
        do { _ = try LayerURL(parsing: text) } catch { #expect(error.code == .invalidURL) }
    }
}
