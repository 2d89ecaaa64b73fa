import CurlHTTP
import FeatureGeometry
import Foundation
import Logging
import SampleFeatureServer
import Testing

/// Shared pieces of the sample server tests: one dataset for the whole suite (generation is the slow part
/// of starting a server), servers and clients that are always shut down, and JSON helpers.
enum TestSupport {
    /// Parcels in the suite's dataset: enough for the seed extent to hold several pages (about 5,900
    /// parcels, 3,700 of them residential), small enough to generate in about a second in debug builds.
    static let parcelCount = 200_000

    static let logger: Logger = {
        var logger = Logger(label: "sample-server-tests") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = ProcessInfo.processInfo.environment["SAMPLE_SERVER_TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()

    /// The suite's dataset (seed 1), generated on first use.
    static func dataset() throws -> SampleDataset {
        try SampleDataset.shared(parcelCount: parcelCount, seed: 1)
    }

    /// Runs `body` with a server on an ephemeral port (on the shared dataset unless one is given) and a
    /// client, then shuts both down.
    static func withServer<T>(
        _ configuration: SampleServerConfiguration = SampleServerConfiguration(),
        dataset: SampleDataset? = nil,
        _ body: (SampleFeatureServer, HTTPClient) async throws -> T
    ) async throws -> T {
        let server = try await SampleFeatureServer.start(
            configuration: configuration, dataset: try dataset ?? self.dataset(), logger: logger)
        let client: HTTPClient
        do {
            client = try HTTPClient(configuration: HTTPClientConfiguration(), logger: logger)
        } catch {
            await server.shutdown()
            throw error
        }
        do {
            let result = try await body(server, client)
            await client.shutdown()
            await server.shutdown()
            return result
        } catch {
            await client.shutdown()
            await server.shutdown()
            throw error
        }
    }
}

/// A failed expectation about a response, with the body for the log.
struct UnexpectedResponse: Error, CustomStringConvertible {
    var description: String
}

extension HTTPClient {
    /// GET `url` with form-encoded query parameters.
    func get(_ url: String, _ parameters: [(String, String)] = [], options: HTTPRequestOptions = HTTPRequestOptions()) async throws -> HTTPResponse {
        let query = parameters.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
        return try await execute(HTTPRequest(url: query.isEmpty ? url : url + "?" + query, options: options))
    }

    /// POST `url` with a form-encoded body.
    func post(_ url: String, _ parameters: [(String, String)]) async throws -> HTTPResponse {
        try await execute(HTTPRequest.formPost(url: url, fields: parameters))
    }

    /// GET and parse a JSON object, requiring HTTP 200.
    func json(_ url: String, _ parameters: [(String, String)] = []) async throws -> [String: Any] {
        let response = try await get(url, parameters)
        guard response.status == 200 else { throw UnexpectedResponse(description: "HTTP \(response.status): \(response.bodyString.prefix(300))") }
        return try response.jsonObject()
    }

    /// Runs a query (GET) and parses the JSON answer.
    func query(_ server: SampleFeatureServer, _ layer: SampleLayer, _ parameters: [(String, String)]) async throws -> [String: Any] {
        try await json(server.queryURL(layer), parameters)
    }
}

extension HTTPResponse {
    func jsonObject() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw UnexpectedResponse(description: "not a JSON object: \(bodyString.prefix(300))")
        }
        return object
    }
}

/// Reading the parts of ArcGIS JSON the tests look at.
extension Dictionary where Key == String, Value == Any {
    var features: [[String: Any]] { self["features"] as? [[String: Any]] ?? [] }
    var objectIDs: [Int] { (self["objectIds"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.intValue } }
    var countResult: Int? { (self["count"] as? NSNumber)?.intValue }
    var exceededTransferLimit: Bool? { (self["exceededTransferLimit"] as? NSNumber)?.boolValue }
    var error: [String: Any]? { self["error"] as? [String: Any] }
    var errorCode: Int? { (error?["code"] as? NSNumber)?.intValue }
    var errorDetails: [String] { error?["details"] as? [String] ?? [] }
    var attributes: [String: Any] { self["attributes"] as? [String: Any] ?? [:] }
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
    /// OBJECTIDs of the features (from their attributes).
    var featureIDs: [Int] { features.compactMap { $0.attributes.int("OBJECTID") } }
}

extension Envelope {
    /// `xmin,ymin,xmax,ymax`, the simple envelope syntax of the geometry parameter.
    var queryText: String { "\(xmin),\(ymin),\(xmax),\(ymax)" }

    /// A rectangle of `width` × `height` around `center`.
    static func around(_ center: Position, width: Double, height: Double, _ reference: SpatialReference = .webMercator) -> Envelope {
        Envelope(
            xmin: center.x - width / 2, ymin: center.y - height / 2, xmax: center.x + width / 2, ymax: center.y + height / 2,
            spatialReference: reference)
    }
}
