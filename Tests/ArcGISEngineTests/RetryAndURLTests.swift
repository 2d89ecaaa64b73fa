import Testing
import EngineExecution
import FeatureService

@testable import ArcGISEngine

@Suite("RetrySchedule and LayerURL")
struct RetryAndURLTests {
    private let policy = RetrySchedule(
        maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .milliseconds(250), maxRetryAfter: .seconds(2))

    @Test func backoffDoublesUpToTheCapWithFullJitter() {
        let retryable = FeatureServiceError(.httpStatus, "503", layer: "x", isRetryable: true)
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 1, random: { $0.upperBound }) == .milliseconds(100))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 2, random: { $0.upperBound }) == .milliseconds(200))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 3, random: { $0.upperBound }) == .milliseconds(250))
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 3, random: { $0.lowerBound }) == .zero)
        #expect(policy.delay(isRetryable: retryable.isRetryable, retryAfter: retryable.retryAfter, retry: 4, random: { $0.upperBound }) == nil)
    }

    @Test func retryAfterIsHonouredUpToItsCap() {
        var error = FeatureServiceError(.httpStatus, "429", layer: "x", isRetryable: true, retryAfter: .seconds(1))
        #expect(policy.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: 1) == .seconds(1))
        error.retryAfter = .seconds(60)
        #expect(policy.delay(isRetryable: error.isRetryable, retryAfter: error.retryAfter, retry: 1) == nil)
    }

    @Test func nonRetryableErrorsAreNotRetried() {
        #expect(policy.delay(isRetryable: false, retryAfter: nil, retry: 1) == nil)
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
        #expect(throws: FeatureServiceError.self) { try LayerURL(parsing: text) }
        do { _ = try LayerURL(parsing: text) } catch { #expect(error.code == .invalidURL) }
    }
}
