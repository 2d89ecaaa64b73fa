import CurlHTTP
import FeatureQuerySupport
import Foundation
import Logging
import PygeoapiFixture
import QueryLanguage
import Testing

/// Requests to pygeoapi and ground truth from the GeoJSON the collections were loaded from.
enum PygeoapiTestSupport {
    static let logger = Logger(label: "pygeoapi-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Runs `body` with a client, shut down afterwards.
    static func withClient<T>(_ body: (HTTPClient) async throws -> T) async throws -> T {
        let client = try HTTPClient(logger: logger)
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// The URL with form-encoded query parameters.
    static func url(_ base: String, _ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return base }
        let query = parameters.map { HTTPRequest.formEncode($0.0) + "=" + HTTPRequest.formEncode($0.1) }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + query
    }

    /// GETs a URL asking for GeoJSON first, as the OGC engine does.
    static func get(_ client: HTTPClient, _ url: String) async throws -> HTTPResponse {
        try await client.execute(HTTPRequest(url: url, headers: ["Accept": "application/geo+json, application/json;q=0.9"]))
    }

    /// GETs and parses a JSON answer that must be HTTP 200.
    static func json(_ client: HTTPClient, _ url: String) async throws -> ParsedJSON {
        let response = try await get(client, url)
        try #require(response.status == 200, "HTTP \(response.status) for \(url): \(response.bodyString.prefix(300))")
        return try ParsedJSON(reading: response.body)
    }

    /// One items page: its features' ids, `numberMatched`, and its `next` link.
    struct Page {
        var ids: [Int]
        var numberMatched: Int?
        var next: String?
    }

    static func page(_ json: ParsedJSON) throws -> Page {
        guard case .array(let features)? = json["features"] else { throw UnexpectedAnswer("no features array") }
        let ids = try features.map { feature -> Int in
            guard case .number(let id)? = feature["id"], let integer = Int(exactly: id) else {
                throw UnexpectedAnswer("a feature without an integer id")
            }
            return integer
        }
        var numberMatched: Int?
        if case .number(let matched)? = json["numberMatched"] { numberMatched = Int(exactly: matched) }
        return Page(ids: ids, numberMatched: numberMatched, next: link(json, rel: "next"))
    }

    /// The href of the first link with `rel` (preferring GeoJSON, then JSON).
    static func link(_ json: ParsedJSON, rel: String) -> String? {
        guard case .array(let links)? = json["links"] else { return nil }
        let matching = links.filter { $0["rel"] == .string(rel) }
        let preferred = matching.first { $0["type"] == .string("application/geo+json") }
            ?? matching.first { $0["type"] == .string("application/json") } ?? matching.first
        if case .string(let href)? = preferred?["href"] { return href }
        return nil
    }

    /// The ids of the features in a GeoJSON file whose properties satisfy `clause`, by the query language's
    /// own evaluator: the ground truth a server-side filter must reproduce.
    static func groundTruth(_ dataset: PygeoapiSampleService.Dataset, where clause: String) throws -> [Int] {
        let filter = try WhereClause(clause).compile(fieldNames: dataset.fieldNames)
        let file = try ParsedJSON(reading: Array(try Data(contentsOf: URL(fileURLWithPath: dataset.geoJSONPath))))
        guard case .array(let features)? = file["features"] else { throw UnexpectedAnswer("no features in \(dataset.geoJSONPath)") }
        return try features.compactMap { feature in
            guard case .number(let id)? = feature["id"], let objectID = Int(exactly: id) else { throw UnexpectedAnswer("a feature without id") }
            let record = dataset.fieldNames.map { attribute(feature["properties"]?[$0]) }
            return filter.matches(record) ? objectID : nil
        }
    }

    /// The longitude of every point feature of a GeoJSON file, in file order.
    static func longitudes(_ dataset: PygeoapiSampleService.Dataset) throws -> [Double] {
        let file = try ParsedJSON(reading: Array(try Data(contentsOf: URL(fileURLWithPath: dataset.geoJSONPath))))
        guard case .array(let features)? = file["features"] else { throw UnexpectedAnswer("no features in \(dataset.geoJSONPath)") }
        return try features.map { feature in
            guard case .array(let coordinates)? = feature["geometry"]?["coordinates"], case .number(let longitude)? = coordinates.first else {
                throw UnexpectedAnswer("a feature that is not a point")
            }
            return longitude
        }
    }

    private static func attribute(_ value: ParsedJSON?) -> AttributeValue {
        switch value {
        case .string(let text)?: .string(text)
        case .number(let number)?: Int64(exactly: number).map { .integer($0) } ?? .double(number)
        case .bool(let flag)?: .integer(flag ? 1 : 0)
        default: .null
        }
    }
}

struct UnexpectedAnswer: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
