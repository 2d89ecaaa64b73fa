import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// Target URLs at the edges of what the decoder accepts: the fast byte-level checks must agree with the
/// contract's rules (http(s), a host, no user info, no query, no empty path segment, a server segment and
/// an optional layer id last).
@Suite("Contract: target URLs")
struct ContractTargetURLTests {
    static let acceptedURLs: [(url: String, isLayer: Bool)] = [
        ("http://h/arcgis/rest/services/A/FeatureServer/0", true),
        ("https://h:8443/arcgis/rest/services/A/MapServer", false),
        ("https://h/arcgis/rest/services/A/MapServer/", false),
        ("http://h/FeatureServer/123456789", true),
        ("http://h/x/MapServer/7/", true),
    ]

    static let refusedURLs: [(url: String, message: String)] = [
        ("http://h/a//MapServer", "has an empty path segment (//)"),
        ("http://h/a/MapServer//", "has an empty path segment (//)"),
        ("http://h//", "has an empty path segment (//)"),
        ("http:///a/MapServer", "has no host"),
        ("http://u@h/a/MapServer", "has user information"),
        ("http://h/a/MapServer?token=x", "has a query string or fragment"),
        ("http://h/a/MapServer/1234567890", "is not an ArcGIS FeatureServer or MapServer URL"),
        ("http://h/a/MapServer/x", "is not an ArcGIS FeatureServer or MapServer URL"),
        ("http://h/0", "is not an ArcGIS FeatureServer or MapServer URL"),
        ("http://MapServer", "is not an ArcGIS FeatureServer or MapServer URL"),
        ("http://h/a/Mapserver", "is not an ArcGIS FeatureServer or MapServer URL"),
        ("ftp://h/a/MapServer", "is not an http:// or https:// URL"),
        ("http://h/a b/MapServer", "contains a space or a character outside ASCII"),
    ]

    static func decode(_ url: String) throws -> IncomingMessage {
        let json = #"{"requestId":"r","targets":[{"type":"arcgis","url":"\#(url)"}],"query":{}}"#
        return try ContractSupport.decoder().decode(Array(json.utf8), key: nil, receivedAt: 0)
    }

    @Test(arguments: acceptedURLs.indices)
    func accepted(_ index: Int) throws {
        let (url, isLayer) = Self.acceptedURLs[index]
        guard case .query(let request) = try Self.decode(url) else {
            Issue.record("\(url) was not accepted")
            return
        }
        let expected = url.hasSuffix("/") ? String(url.dropLast()) : url
        #expect(request.targets.first == .arcgis(url: expected, layers: nil), "\(url)")
        // A layers list is for service URLs only: the decoder must tell a layer URL from a service URL.
        let withLayers = #"{"requestId":"r","targets":[{"type":"arcgis","url":"\#(url)","layers":[1]}],"query":{}}"#
        let decoded = try ContractSupport.decoder().decode(Array(withLayers.utf8), key: nil, receivedAt: 0)
        if case .rejected = decoded { #expect(isLayer, "\(url)") } else { #expect(!isLayer, "\(url)") }
    }

    @Test(arguments: refusedURLs.indices)
    func refused(_ index: Int) throws {
        let (url, message) = Self.refusedURLs[index]
        guard case .rejected(let rejection) = try Self.decode(url) else {
            Issue.record("\(url) was accepted")
            return
        }
        #expect(rejection.code == .invalidURL, "\(url)")
        #expect(rejection.message.contains(message), "\(url): \(rejection.message)")
        #expect(rejection.message.contains("targets[0].url"), "\(url): \(rejection.message)")
    }
}
