import CurlHTTP
import EngineExecution
import FeatureService
import HTTPTestServer
import Hummingbird
import Logging
import QueryLanguage
import Synchronization

@testable import OGCEngine

/// A scripted OGC API Features server on loopback: a landing page at `/ogc` with relative links, its
/// conformance, its collections, and items answered by each test's own `items` closure, so each quirk is one
/// closure. Every request is recorded.
final class OGCTestServer: Sendable {
    typealias Items = @Sendable (Request) async throws -> Response

    let http: TestHTTPServer
    private let log = Mutex<[Request]>([])

    static let logger: Logger = {
        var logger = Logger(label: "ogc-engine-tests")
        logger.logLevel = .critical
        return logger
    }()

    static let part1 = [
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
    ]
    static let cql2Text = part1 + [
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter",
        "http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter",
        "http://www.opengis.net/spec/cql2/1.0/conf/cql2-text",
        "http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2",
    ]

    private init(http: TestHTTPServer) { self.http = http }

    var landing: String { http.url("/ogc") }
    var requests: [Request] { log.withLock { $0 } }
    var itemRequests: [Request] { requests.filter { $0.uri.path.hasSuffix("/items") } }

    /// A server with one collection `things` (or `collections`, JSON objects) answering items with `items`.
    static func start(
        conformance: [String] = part1, collections: [String]? = nil, queryables: String? = nil,
        items: @escaping Items
    ) async throws -> OGCTestServer {
        let box = Mutex<OGCTestServer?>(nil)
        let collectionList = collections ?? [collection("things")]
        let http = try await TestHTTPServer.start(logger: logger) { request in
            box.withLock { $0 }?.log.withLock { $0.append(request) }
            switch request.uri.path {
            case "/ogc", "/ogc/":
                return .json(#"{"title":"Test","links":[{"rel":"self","href":"ogc","type":"application/json"},"#
                    + #"{"rel":"conformance","href":"ogc/conformance","type":"text/html"},"#
                    + #"{"rel":"conformance","href":"ogc/conformance","type":"application/json"},"#
                    + #"{"rel":"data","href":"/ogc/collections"}]}"#)
            case "/ogc/conformance":
                return .json(#"{"conformsTo":[\#(conformance.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
            case "/ogc/collections":
                return .json(#"{"collections":[\#(collectionList.joined(separator: ","))],"links":[]}"#)
            default:
                if request.uri.path.hasSuffix("/queryables") {
                    guard let queryables else { return .json(#"{"code":"NotFound"}"#, status: 404) }
                    return .text(queryables, contentType: "application/schema+json")
                }
                if request.uri.path.hasSuffix("/items") { return try await items(request) }
                return .json(#"{"code":"NotFound","description":"no such path"}"#, status: 404)
            }
        }
        let server = OGCTestServer(http: http)
        box.withLock { $0 = server }
        return server
    }

    static func collection(_ id: String, extent: String? = nil, extra: String = "") -> String {
        let extentText = extent.map { #","extent":{"spatial":{"bbox":[\#($0)]}}"# } ?? ""
        return #"{"id":"\#(id)","title":"Things \#(id)"\#(extentText)\#(extra),"links":[{"rel":"items","href":"collections/\#(id)/items","type":"text/html"},{"rel":"items","href":"collections/\#(id)/items?f=json","type":"application/geo+json"}]}"#
    }

    /// A point feature; `id` is written as given (`1`, `"1"`, or nil for none).
    static func feature(id: String?, x: Double = 10, y: Double = 20, properties: String = #"{"n":1}"#) -> String {
        let idText = id.map { #""id":\#($0),"# } ?? ""
        return #"{"type":"Feature",\#(idText)"geometry":{"type":"Point","coordinates":[\#(x),\#(y)]},"properties":\#(properties)}"#
    }

    /// A FeatureCollection page.
    static func page(_ features: [String], next: String? = nil, numberMatched: Int? = nil, nextType: String = "application/geo+json") -> String {
        var links: [String] = []
        if let next { links.append(#"{"rel":"next","href":"\#(next)","type":"\#(nextType)"}"#) }
        let matched = numberMatched.map { #","numberMatched":\#($0)"# } ?? ""
        return #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))],"links":[\#(links.joined(separator: ","))]\#(matched)}"#
    }

    func shutdown() async { await http.stop() }

    /// Runs `body` with an engine over a fresh client, shutting both down after.
    func withEngine<T>(
        _ configuration: OGCEngineConfiguration = OGCTestServer.fastConfiguration, logger: Logger = OGCTestServer.logger,
        authenticator: any RequestAuthenticator = NoAuthentication(),
        _ body: (OGCEngine) async throws -> T
    ) async throws -> T {
        let client = try HTTPClient(logger: Self.logger)
        let engine = OGCEngine(httpClient: client, configuration: configuration, logger: logger, authenticator: authenticator)
        do {
            let result = try await body(engine)
            await client.shutdown()
            await shutdown()
            return result
        } catch {
            await client.shutdown()
            await shutdown()
            throw error
        }
    }

    static let fastConfiguration = OGCEngineConfiguration(
        retry: RetrySchedule(maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), maxRetryAfter: .seconds(2)))

    /// The one outcome of querying collection `id` (default `things`).
    func query(_ engine: OGCEngine, _ query: ServiceQuery, collection id: String = "things") async -> ServiceLayerOutcome {
        let outcomes = await engine.query(
            [ServiceTarget(kind: .ogc, url: landing, layers: [id])], query, budget: .unlimited())
        return outcomes[0][0]
    }
}

extension ServiceLayerOutcome {
    var success: ServiceLayerResult? {
        if case .success(let result) = result { return result }
        return nil
    }

    var failure: FeatureServiceError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

extension ServiceLayerResult {
    var featureIds: [FeatureID?] {
        switch selection {
        case .featureIds(let ids): return ids
        case .features(let list):
            if case .featureIds(let ids) = list.identifiers { return ids }
            return []
        default: return []
        }
    }
}
